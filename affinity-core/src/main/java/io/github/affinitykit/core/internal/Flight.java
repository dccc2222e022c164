package io.github.affinitykit.core.internal;

import io.github.affinitykit.core.jfr.FlightEvents;

/**
 * Where the library tells JDK Flight Recorder what it did: each call commits one event when the
 * runtime has {@code jdk.jfr} and a recording enabled it, else does nothing and loads no {@code
 * jdk.jfr} class. See ARCHITECTURE.md, "Flight Recorder events". Thread safety: any thread.
 */
public final class Flight {
  private Flight() {}

  /** Whether {@code jdk.jfr} is in the boot layer: asked once, at the first event. */
  private static final class Module {
    static final boolean PRESENT = ModuleLayer.boot().findModule("jdk.jfr").isPresent();
  }

  /**
   * A thread bound by its seat: {@code cpu} -1 if none; {@code memoryPolicy} made text only when
   * recorded.
   */
  public static void pinned(
      String group,
      String member,
      int cpu,
      int tid,
      String status,
      String reason,
      Object memoryPolicy) {
    if (Module.PRESENT) {
      FlightEvents.pinned(group, member, cpu, tid, status, reason, memoryPolicy);
    }
  }

  /** A lease closed, with its status as it closed. */
  public static void released(int cpu, int tid, String status) {
    if (Module.PRESENT) {
      FlightEvents.released(cpu, tid, status);
    }
  }

  /** A lease found moved: {@code allowed} is the CPUs the kernel allows it on now. */
  public static void moved(int cpu, int tid, String allowed) {
    if (Module.PRESENT) {
      FlightEvents.moved(cpu, tid, allowed);
    }
  }

  /** A lease's reservation found lost, with the seat's reason. */
  public static void lost(int cpu, int tid, String reason) {
    if (Module.PRESENT) {
      FlightEvents.lost(cpu, tid, reason);
    }
  }

  /**
   * An isolation or confinement ({@code kind}) made, refused or undone: {@code detail} how or why
   * not.
   */
  public static void isolation(String kind, String cpus, String status, String detail) {
    if (Module.PRESENT) {
      FlightEvents.isolation(kind, cpus, status, detail);
    }
  }
}
