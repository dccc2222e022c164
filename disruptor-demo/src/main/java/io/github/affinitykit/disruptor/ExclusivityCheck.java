package io.github.affinitykit.disruptor;

import io.github.affinitykit.audit.Confinement;
import io.github.affinitykit.audit.CpuAudit;
import io.github.affinitykit.audit.JvmThreads;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuTopology;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * Makes the consumers' CPUs as exclusive as a running JVM can (every other thread of this JVM
 * confined to the CPUs outside the consumers' cores) and audits them before the consumers start:
 * anything seen there is an intruder. {@link #undo()} gives the confined threads their masks back
 * (affinity-audit's {@link Confinement}, the one undo; an audit that throws undoes it before
 * rethrowing).
 *
 * <p>Thread safety: {@link #run} blocks for the audit window; {@link #undo()} may be called once,
 * from any thread.
 */
final class ExclusivityCheck {
  private final Optional<CpuAudit> audit;
  private final Optional<Confinement> confined;
  private final CpuSet exclusive;

  private ExclusivityCheck(
      Optional<CpuAudit> audit, Optional<Confinement> confined, CpuSet exclusive) {
    this.audit = audit;
    this.confined = confined;
    this.exclusive = exclusive;
  }

  /** No audit: nothing is proven exclusive. */
  static ExclusivityCheck none() {
    return new ExclusivityCheck(Optional.empty(), Optional.empty(), CpuSet.empty());
  }

  /** Confines the rest of the JVM away from the consumers' cores, then audits their CPUs. */
  static ExclusivityCheck run(AffinityKit kit, PipelineAssignments layout, Duration window) {
    return run(kit, layout, window, (c, w) -> CpuAudit.of(kit, c, w));
  }

  /** As {@link #run(AffinityKit, PipelineAssignments, Duration)}, auditing with {@code audit}. */
  static ExclusivityCheck run(
      AffinityKit kit,
      PipelineAssignments layout,
      Duration window,
      BiFunction<CpuSet, Duration, CpuAudit> audit) {
    CpuSet cpus = layout.consumerCpus();
    CpuTopology t = kit.host().topology();
    CpuSet cores = CpuSet.empty();
    for (int c : cpus.toArray()) {
      cores = cores.union(t.cpu(c).core());
    }
    CpuSet housekeeping = kit.host().reachable().minus(cores);
    if (cpus.isEmpty() || housekeeping.isEmpty()) {
      return none();
    }
    Confinement confined = JvmThreads.of(kit).confineUntilClosed(housekeeping, Set.of());
    CpuAudit report;
    try {
      report = audit.apply(cpus, window);
    } catch (RuntimeException e) {
      confined.close();
      throw e;
    }
    int[] ok =
        report.verdicts().stream().filter(v -> v.exclusive()).mapToInt(v -> v.cpu()).toArray();
    return new ExclusivityCheck(Optional.of(report), Optional.of(confined), CpuSet.of(ok));
  }

  /** Returns the audit, if one ran. */
  Optional<CpuAudit> audit() {
    return audit;
  }

  /** Returns the CPUs audited (empty when no audit ran). */
  CpuSet audited() {
    return audit
        .map(a -> CpuSet.of(a.verdicts().stream().mapToInt(v -> v.cpu()).toArray()))
        .orElse(CpuSet.empty());
  }

  /** Returns the CPUs the audit found EXCLUSIVE. */
  CpuSet exclusive() {
    return exclusive;
  }

  /** Gives the confined threads their CPUs back ({@link Confinement#close()}); idempotent. */
  void undo() {
    confined.ifPresent(Confinement::close);
  }
}
