package io.github.affinitykit.core;

import io.github.affinitykit.core.cpu.CpuSet;
import java.util.Optional;

/**
 * A runtime isolation, as core sees it ({@link CpuIsolator}): whether it is in force, on which
 * CPUs, why (not), and its undo. affinity-isolation's {@code Isolation} carries the whole report.
 *
 * <p>Thread safety: every method may be called from any thread; {@link #close()} is idempotent.
 */
public interface CpuIsolation extends AutoCloseable {
  /** {@return the CPUs; isolated only while {@link #isActive()}} */
  CpuSet cpus();

  /** {@return true from a successful isolation until {@link #close()}} */
  boolean isActive();

  /** {@return e.g. {@code isolated by CGROUP_V1_CPUSET}, or the refusal; never empty} */
  String reason();

  /**
   * Lets thread {@code tid} of this JVM onto the isolated CPUs before it is bound there.
   *
   * @param tid the kernel thread id of a thread of this JVM
   * @return empty if it may run there (or nothing was to be done), else why it may not
   */
  Optional<String> letIn(int tid);

  /**
   * Takes thread {@code tid} of this JVM off the isolated CPUs once its mask is restored.
   *
   * @param tid the kernel thread id of a thread of this JVM
   */
  void letOut(int tid);

  /** Undoes the isolation; harmless if it did nothing or was undone before. */
  @Override
  void close();
}
