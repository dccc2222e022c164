package io.github.affinitykit.core.isolation;

import io.github.affinitykit.core.CpuSet;
import java.util.Objects;

/**
 * What stays on the isolated CPUs after a runtime isolation, and what would remove it.
 *
 * <p>Thread safety: immutable.
 *
 * @param kind what stays
 * @param cpus the isolated CPUs it concerns
 * @param detail what, with names and numbers, and the boot parameter that removes it if any
 */
public record Residue(Kind kind, CpuSet cpus, String detail) {
  /** What stays. */
  public enum Kind {
    /** Per-CPU kernel threads (ksoftirqd/N, migration/N, kworker/N:M): bound there for good. */
    PER_CPU_KERNEL_THREADS,
    /** Kernel threads that refuse a new affinity but may run anywhere (unbound kworkers). */
    UNMOVABLE_TASKS,
    /** IRQs whose affinity the kernel refused to change (managed IRQs, the timer). */
    UNMOVABLE_IRQS,
    /** IRQs moved whose delivery has not followed yet (it does at their next interrupt). */
    IRQS_IN_FLIGHT,
    /** The scheduler tick, without {@code nohz_full} at boot. */
    TICK,
    /** RCU callbacks, without {@code rcu_nocbs} at boot. */
    RCU_CALLBACKS,
    /** An SMT sibling left general-purpose: the core, its caches and its pipeline are shared. */
    SMT_SIBLING
  }

  /** Validates. */
  public Residue {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(cpus, "cpus");
    Objects.requireNonNull(detail, "detail");
  }

  @Override
  public String toString() {
    return kind + " on " + cpus + ": " + detail;
  }
}
