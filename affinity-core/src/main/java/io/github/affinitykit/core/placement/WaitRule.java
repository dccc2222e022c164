package io.github.affinitykit.core.placement;

import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.observe.CpuAudit;
import java.util.Objects;

/**
 * The one placement rule for waiting threads: a thread may spin (busy-poll) instead of sleeping
 * only on a CPU proven exclusive, i.e. its whole physical core isolated, or an exclusivity audit
 * ({@link CpuAudit}) called it EXCLUSIVE. Anywhere else a spinning thread takes the CPU from
 * whatever else runs there (the producer it waits for, a kernel thread, another process) until the
 * end of a time slice. The Disruptor's wait advisor and the Netty loops' wait policy both ask this
 * rule; each checks first that no other thread of its own is placed on the same core.
 *
 * <p>Thread safety: stateless; safe for concurrent use.
 */
public final class WaitRule {
  private WaitRule() {}

  /**
   * Judges {@code cpu} for a thread pinned there alone on its core.
   *
   * @param host the host model
   * @param cpu the thread's CPU
   * @param auditedExclusive the CPUs an audit found EXCLUSIVE (empty without an audit)
   * @param audited the CPUs audited at all (a superset of {@code auditedExclusive})
   * @return whether the thread may spin, the basis and the facts
   * @throws IllegalArgumentException if {@code cpu} is not a known CPU of {@code host}, or {@code
   *     auditedExclusive} is not within {@code audited}
   */
  public static WaitAdvice judge(HostCpus host, int cpu, CpuSet auditedExclusive, CpuSet audited) {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(auditedExclusive, "auditedExclusive");
    Objects.requireNonNull(audited, "audited");
    if (!audited.containsAll(auditedExclusive)) {
      throw new IllegalArgumentException(
          "auditedExclusive: " + auditedExclusive + " (expected: within audited " + audited + ")");
    }
    CpuSet core = host.topology().cpu(cpu).core();
    CpuSet online = core.intersect(host.topology().online());
    CpuSet isolated = host.isolatedCpus();
    if (host.exclusive().contains(cpu) && isolated.containsAll(online)) {
      return new WaitAdvice(
          cpu, WaitAdvice.Basis.ISOLATED_CORE, "isolated, with its whole core " + core);
    }
    if (auditedExclusive.contains(cpu)) {
      return new WaitAdvice(
          cpu, WaitAdvice.Basis.AUDITED_EXCLUSIVE, "audited EXCLUSIVE, alone on core " + core);
    }
    if (isolated.contains(cpu)) {
      return new WaitAdvice(
          cpu,
          WaitAdvice.Basis.ISOLATED_SHARED_CORE,
          "isolated, but its core-mate "
              + online.minus(isolated)
              + " is not: general work runs on the same core");
    }
    boolean wasAudited = audited.contains(cpu);
    return new WaitAdvice(
        cpu,
        wasAudited ? WaitAdvice.Basis.AUDITED_SHARED : WaitAdvice.Basis.NOT_AUDITED,
        "alone on core "
            + core
            + " but not isolated, and "
            + (wasAudited ? "the audit found it SHARED" : "not audited")
            + ": other tasks and IRQs may run there");
  }
}
