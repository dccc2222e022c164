package io.github.affinitykit.jfr;

import io.github.affinitykit.core.internal.Flight;

/**
 * affinity-core's {@link Flight}, found by its {@link java.util.ServiceLoader}: each call commits
 * one event when the runtime has {@code jdk.jfr} and a recording enabled the event, else does
 * nothing and loads no {@code jdk.jfr} class (a runtime jlink'd without the module, with this jar
 * on its class path, records nothing and fails nothing).
 *
 * <p>Thread safety: stateless; any thread may call any method.
 */
public final class JfrFlight implements Flight {
  /** Whether {@code jdk.jfr} is in the boot layer: asked once, at the first event. */
  private static final class Module {
    static final boolean PRESENT = ModuleLayer.boot().findModule("jdk.jfr").isPresent();
  }

  /** Made by core's {@link java.util.ServiceLoader}, once. */
  public JfrFlight() {}

  @Override
  public void pinned(
      String group, String member, int cpu, int tid, String status, String reason, Object policy) {
    if (Module.PRESENT) {
      FlightEvents.pinned(group, member, cpu, tid, status, reason, policy);
    }
  }

  @Override
  public void released(int cpu, int tid, String status) {
    if (Module.PRESENT) {
      FlightEvents.released(cpu, tid, status);
    }
  }

  @Override
  public void moved(int cpu, int tid, String allowed) {
    if (Module.PRESENT) {
      FlightEvents.moved(cpu, tid, allowed);
    }
  }

  @Override
  public void lost(int cpu, int tid, String reason) {
    if (Module.PRESENT) {
      FlightEvents.lost(cpu, tid, reason);
    }
  }

  @Override
  public void isolation(String kind, String cpus, String status, String detail) {
    if (Module.PRESENT) {
      FlightEvents.isolation(kind, cpus, status, detail);
    }
  }
}
