package io.github.affinitykit.disruptor;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.host.CpuTopology;
import io.github.affinitykit.core.observe.ConfineReport;
import io.github.affinitykit.core.observe.CpuAudit;
import io.github.affinitykit.core.observe.JvmThreads;
import io.github.affinitykit.core.os.AffinityException;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * Makes the consumers' CPUs as exclusive as a running JVM can (every other thread of this JVM
 * confined to the CPUs outside the consumers' cores) and audits them before the consumers start:
 * anything seen there is an intruder. {@link #undo()} gives the confined threads their masks back.
 *
 * <p>Thread safety: {@link #run} blocks for the audit window; {@link #undo()} may be called once,
 * from any thread.
 */
final class ExclusivityCheck {
  private final AffinityKit kit;
  private final Optional<CpuAudit> audit;
  private final Optional<ConfineReport> confined;
  private final CpuSet exclusive;

  private ExclusivityCheck(
      AffinityKit kit,
      Optional<CpuAudit> audit,
      Optional<ConfineReport> confined,
      CpuSet exclusive) {
    this.kit = kit;
    this.audit = audit;
    this.confined = confined;
    this.exclusive = exclusive;
  }

  /** No audit: nothing is proven exclusive. */
  static ExclusivityCheck none(AffinityKit kit) {
    return new ExclusivityCheck(kit, Optional.empty(), Optional.empty(), CpuSet.empty());
  }

  /** Confines the rest of the JVM away from the consumers' cores, then audits their CPUs. */
  static ExclusivityCheck run(AffinityKit kit, PipelineAssignments layout, Duration window) {
    CpuSet cpus = layout.consumerCpus();
    CpuTopology t = kit.host().topology();
    CpuSet cores = CpuSet.empty();
    for (int c : cpus.toArray()) {
      cores = cores.union(t.cpu(c).core());
    }
    CpuSet housekeeping = kit.host().reachable().minus(cores);
    if (cpus.isEmpty() || housekeeping.isEmpty()) {
      return none(kit);
    }
    ConfineReport report = new JvmThreads(kit).confine(housekeeping, Set.of());
    CpuAudit audit = kit.audit(cpus, window);
    int[] ok =
        audit.verdicts().stream().filter(v -> v.exclusive()).mapToInt(v -> v.cpu()).toArray();
    return new ExclusivityCheck(kit, Optional.of(audit), Optional.of(report), CpuSet.of(ok));
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

  /**
   * Gives every thread the confinement moved its previous mask back (ended threads are skipped).
   */
  void undo() {
    confined.ifPresent(
        r -> {
          for (ConfineReport.Entry e : r.moved()) {
            if (!e.before().isEmpty()) {
              try {
                kit.backend().setAffinity(e.tid(), e.before());
              } catch (AffinityException ignored) {
                // ESRCH: the thread has ended.
              }
            }
          }
        });
  }
}
