package io.github.affinitykit.isolation;

import io.github.affinitykit.core.cpu.CpuSet;
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
  /** What stays, and the boot parameter that removes it (empty: none does). */
  public enum Kind {
    /** Per-CPU kernel threads (ksoftirqd/N, migration/N, kworker/N:M): bound there for good. */
    PER_CPU_KERNEL_THREADS("isolcpus=domain"),
    /** Kernel threads that refuse a new affinity but may run anywhere (unbound kworkers). */
    UNMOVABLE_TASKS("isolcpus=domain"),
    /** IRQs whose affinity the kernel refused to change (managed IRQs, the timer). */
    UNMOVABLE_IRQS("isolcpus=managed_irq"),
    /** IRQs moved whose delivery has not followed yet (it does at their next interrupt). */
    IRQS_IN_FLIGHT("irqaffinity"),
    /** The scheduler tick, without {@code nohz_full} at boot. */
    TICK("nohz_full"),
    /** RCU callbacks, without {@code rcu_nocbs} at boot. */
    RCU_CALLBACKS("rcu_nocbs"),
    /** An SMT sibling left general-purpose: the core, its caches and its pipeline are shared. */
    SMT_SIBLING("");

    private final String bootParameter;

    Kind(String bootParameter) {
      this.bootParameter = bootParameter;
    }

    /**
     * The kernel parameter that keeps it off the CPUs from boot on; empty if none does.
     *
     * @return the parameter, with its flag where one is needed ({@code "isolcpus=domain"}); empty
     *     for {@link #SMT_SIBLING}
     */
    public String bootParameter() {
      return bootParameter;
    }
  }

  /**
   * Validates.
   *
   * @param kind what stays; not null
   * @param cpus the isolated CPUs it concerns; not null
   * @param detail what, with names and numbers, and the boot parameter that removes it; not null
   */
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
