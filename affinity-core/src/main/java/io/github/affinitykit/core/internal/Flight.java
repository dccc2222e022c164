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
   * A thread bound by its seat.
   *
   * @param group the group's name
   * @param member the member's name
   * @param cpu the CPU, -1 if none
   * @param tid the thread's kernel id
   * @param status the lease's status
   * @param reason why that CPU, or why none
   * @param memoryPolicy what became of the memory policy (text built only when recorded)
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

  /**
   * A lease closed.
   *
   * @param cpu the CPU it held, -1 if none
   * @param tid the thread's kernel id
   * @param status its status as it closed
   */
  public static void released(int cpu, int tid, String status) {
    if (Module.PRESENT) {
      FlightEvents.released(cpu, tid, status);
    }
  }

  /**
   * A lease found moved.
   *
   * @param cpu its CPU
   * @param tid the thread's kernel id
   * @param allowed the CPUs the kernel allows it on now
   */
  public static void moved(int cpu, int tid, String allowed) {
    if (Module.PRESENT) {
      FlightEvents.moved(cpu, tid, allowed);
    }
  }

  /**
   * A lease's reservation found lost.
   *
   * @param cpu its CPU
   * @param tid the thread's kernel id
   * @param reason the seat's reason
   */
  public static void lost(int cpu, int tid, String reason) {
    if (Module.PRESENT) {
      FlightEvents.lost(cpu, tid, reason);
    }
  }

  /**
   * An isolation or a confinement made, refused or undone.
   *
   * @param kind {@code isolation} or {@code confinement}
   * @param cpus the CPUs concerned, as a cpu list
   * @param status what happened
   * @param detail how, or why not
   */
  public static void isolation(String kind, String cpus, String status, String detail) {
    if (Module.PRESENT) {
      FlightEvents.isolation(kind, cpus, status, detail);
    }
  }
}
