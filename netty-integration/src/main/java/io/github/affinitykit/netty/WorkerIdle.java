package io.github.affinitykit.netty;

import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import java.util.List;
import java.util.Objects;

/**
 * The worker loops' idle policy in a server's groups: the strategies Netty asked for, the request,
 * and the decision in force (made when the groups are built, made again after an audit).
 *
 * <p>Thread safety: {@link #decide} is synchronized; {@link #report()} may be read from any thread.
 */
final class WorkerIdle {
  private final HostCpus host;
  private final IdlePolicy requested;
  private final IdleStrategies strategies;
  private volatile IdleReport report;

  WorkerIdle(HostCpus host, IdlePolicy requested, IdleStrategies strategies) {
    this.host = Objects.requireNonNull(host, "host");
    this.requested = Objects.requireNonNull(requested, "requested");
    this.strategies = Objects.requireNonNull(strategies, "strategies");
    this.report = new IdleReport(requested, strategies.limit(), List.of());
  }

  /** Returns the strategies to hand to the workers' handler factory. */
  IdleStrategies strategies() {
    return strategies;
  }

  /** Decides every worker loop's mode and sets it; returns the new report. */
  synchronized IdleReport decide(
      Transport transport,
      List<LoopAssignment> workers,
      List<LoopAssignment> everyone,
      CpuSet auditedExclusive,
      CpuSet audited) {
    List<LoopIdle> loops =
        IdleDecider.decide(
            requested, transport, host, workers, everyone, auditedExclusive, audited);
    for (LoopIdle l : loops) {
      if (l.index() < strategies.size()) {
        strategies.mode(l.index(), l.mode());
      }
    }
    report = new IdleReport(requested, strategies.limit(), loops);
    return report;
  }

  /** Returns the decision in force. */
  IdleReport report() {
    return report;
  }
}
