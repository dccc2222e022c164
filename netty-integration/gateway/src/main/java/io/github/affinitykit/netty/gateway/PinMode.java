package io.github.affinitykit.netty.gateway;

import java.util.Locale;

/**
 * How the gateway pins its threads.
 *
 * <p>Thread safety: immutable.
 */
public enum PinMode {
  /** Nothing is pinned: the OS places every thread (where each loop ran is still reported). */
  UNPINNED,
  /** Boss, workers and business threads pinned to planned CPUs of the pool. */
  PINNED,
  /**
   * Pinned, and every other thread of the JVM (GC, JIT, VM, unpinned loops) confined to the
   * housekeeping CPUs, re-swept every second: the pinned CPUs run only the gateway's loops, as far
   * as this JVM is concerned (other processes still may: only isolation keeps them off).
   */
  EXCLUSIVE,
  /**
   * Exclusive, and the workers' CPUs also isolated from the rest of the machine at runtime ({@link
   * io.github.affinitykit.core.CpuGroupBuilder#isolate} on the worker group: root; other processes,
   * movable kernel threads and IRQs moved off until the gateway stops). Never the default: it
   * changes the whole machine. Without the permission nothing changes and the gateway says why at
   * start.
   */
  ISOLATED;

  /** Whether the rest of the JVM is confined to the housekeeping CPUs (exclusive, isolated). */
  public boolean confines() {
    return this == EXCLUSIVE || this == ISOLATED;
  }

  /** Returns the lower-case name, as on the command line. */
  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
