package io.github.affinitykit.netty;

import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import java.util.List;
import java.util.Objects;

/**
 * The worker loops' wait policy in a server's groups: the strategies Netty asked for, the request,
 * and the decision in force (made when the groups are built, made again after an audit).
 *
 * <p>Thread safety: {@link #decide} is synchronized; {@link #report()} may be read from any thread.
 */
final class WorkerWait {
  private final HostCpus host;
  private final WaitPolicy requested;
  private final WaitSelectStrategyFactory strategies;
  private volatile WaitReport report;

  WorkerWait(HostCpus host, WaitPolicy requested, WaitSelectStrategyFactory strategies) {
    this.host = Objects.requireNonNull(host, "host");
    this.requested = Objects.requireNonNull(requested, "requested");
    this.strategies = Objects.requireNonNull(strategies, "strategies");
    this.report = new WaitReport(requested, strategies.limit(), List.of());
  }

  /** Returns the strategies to hand to the workers' handler factory. */
  WaitSelectStrategyFactory strategies() {
    return strategies;
  }

  /** Decides every worker loop's mode and sets it; returns the new report. */
  synchronized WaitReport decide(
      Transport transport,
      List<LoopAssignment> workers,
      List<LoopAssignment> everyone,
      CpuSet auditedExclusive,
      CpuSet audited) {
    List<LoopWait> loops =
        WaitDecider.decide(
            requested, transport, host, workers, everyone, auditedExclusive, audited);
    for (LoopWait l : loops) {
      if (l.index() < strategies.size()) {
        strategies.mode(l.index(), l.mode());
      }
    }
    report = new WaitReport(requested, strategies.limit(), loops);
    return report;
  }

  /** Returns the decision in force. */
  WaitReport report() {
    return report;
  }
}
