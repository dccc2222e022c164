package io.github.affinitykit.agrona;

import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.placement.WaitAdvice;
import io.github.affinitykit.core.placement.WaitRule;
import java.util.List;
import java.util.Optional;

/**
 * The choice of a {@link PlacedIdleStrategy}, first match wins: back off when the thread holds no
 * lease of the kit, when its lease is not {@link LeaseStatus#PINNED} (shared, lost, moved), or when
 * another thread the kit pinned (of any group) is on the same core; otherwise ask {@link WaitRule},
 * the rule the Disruptor advisor and the Netty loops share, and busy-spin only where it says spin.
 *
 * <p>Thread safety: stateless.
 */
final class IdleRule {
  private IdleRule() {}

  /**
   * Chooses for thread {@code thread}, whose lease is {@code lease}; {@code open} are the kit's
   * open leases (the thread's own among them).
   */
  static IdleChoice choose(
      HostCpus host, String thread, Optional<CpuLease> lease, List<CpuLease> open) {
    if (lease.isEmpty()) {
      return backoff(
          thread,
          -1,
          "not pinned (no lease of this kit): spinning would take a CPU other threads need");
    }
    CpuLease own = lease.get();
    if (own.status() != LeaseStatus.PINNED) {
      return backoff(
          thread,
          own.cpu(),
          "lease "
              + own.status()
              + " ("
              + own.reason()
              + "): spinning would take the CPU from whatever shares it");
    }
    CpuSet core = host.topology().cpu(own.cpu()).core();
    for (CpuLease other : open) {
      if (other.tid() != own.tid() && core.contains(other.cpu())) {
        return backoff(
            thread,
            own.cpu(),
            "core " + core + " also runs " + other.group() + "/" + other.member());
      }
    }
    WaitAdvice a = WaitRule.judge(host, own.cpu(), CpuSet.empty(), CpuSet.empty());
    return new IdleChoice(
        a.spin() ? IdleChoice.Mode.BUSY_SPIN : IdleChoice.Mode.BACKOFF,
        thread,
        own.cpu(),
        Optional.of(a),
        a.reason());
  }

  private static IdleChoice backoff(String thread, int cpu, String reason) {
    return new IdleChoice(IdleChoice.Mode.BACKOFF, thread, cpu, Optional.empty(), reason);
  }
}
