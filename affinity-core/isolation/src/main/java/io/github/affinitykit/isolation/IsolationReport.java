package io.github.affinitykit.isolation;

import io.github.affinitykit.core.cpu.CpuSet;
import java.util.List;
import java.util.Objects;

/**
 * What an isolation did, plans or undid, as data.
 *
 * <p>Thread safety: immutable.
 *
 * @param status where it stands
 * @param cpus the CPUs isolated (or to isolate)
 * @param housekeeping the CPUs left to everything else
 * @param mechanism the mechanism used; {@link Mechanism#NONE} when refused
 * @param reasons why this mechanism: what each better one lacks here, and what was tried and undone
 * @param refusal why nothing was changed, naming the missing permission or the conflict; empty
 *     unless {@link IsolationStatus#REFUSED}
 * @param ownerPid the isolating process
 * @param journal the journal file (the undo record), empty if none was written
 * @param changes every change: tasks and IRQs moved, cgroup and kernel files written, and what
 *     could not be moved (outcome {@link Change.Outcome#FAILED}), or, once released, what was put
 *     back
 * @param residues what stays on the CPUs
 * @param bootCommandLine the kernel parameters that would isolate the CPUs from boot, removing most
 *     of the residues
 * @param recovered isolations of dead owners found (and undone) first, one sentence each
 */
public record IsolationReport(
    IsolationStatus status,
    CpuSet cpus,
    CpuSet housekeeping,
    Mechanism mechanism,
    List<String> reasons,
    String refusal,
    long ownerPid,
    String journal,
    List<Change> changes,
    List<Residue> residues,
    String bootCommandLine,
    List<String> recovered) {

  /**
   * Validates and copies.
   *
   * @param status where it stands; not null
   * @param cpus the CPUs isolated (or to isolate); not null
   * @param housekeeping the CPUs left to everything else; not null
   * @param mechanism the mechanism used, {@link Mechanism#NONE} when refused; not null
   * @param reasons why this mechanism, one sentence each; copied
   * @param refusal why nothing was changed, empty unless {@link IsolationStatus#REFUSED}; not null
   * @param ownerPid the isolating process's pid
   * @param journal the journal file, empty if none was written; not null
   * @param changes every change made, planned or put back; copied
   * @param residues what stays on the CPUs; copied
   * @param bootCommandLine the kernel parameters that would isolate the CPUs from boot; not null
   * @param recovered isolations of dead owners found and undone first, one sentence each; copied
   */
  public IsolationReport {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(cpus, "cpus");
    Objects.requireNonNull(housekeeping, "housekeeping");
    Objects.requireNonNull(mechanism, "mechanism");
    reasons = List.copyOf(reasons);
    Objects.requireNonNull(refusal, "refusal");
    Objects.requireNonNull(journal, "journal");
    changes = List.copyOf(changes);
    residues = List.copyOf(residues);
    Objects.requireNonNull(bootCommandLine, "bootCommandLine");
    recovered = List.copyOf(recovered);
  }

  /**
   * The changes of one kind.
   *
   * @param kind the kind to keep
   * @return those of {@link #changes()}, in its order; unmodifiable, possibly empty
   */
  public List<Change> changes(Change.Kind kind) {
    return changes.stream().filter(c -> c.kind() == kind).toList();
  }

  /**
   * How many changes of {@code kind} ended with {@code outcome}.
   *
   * @param kind the kind of change to count
   * @param outcome the outcome to count
   * @return the number of such changes, 0 if none
   */
  public long count(Change.Kind kind, Change.Outcome outcome) {
    return changes.stream().filter(c -> c.kind() == kind && c.outcome() == outcome).count();
  }

  /**
   * A few lines for people: status, mechanism and why, counts, residues, the boot line.
   *
   * @return newline-terminated lines, with at most ten failed or left changes of each kind
   */
  public String text() {
    StringBuilder sb = new StringBuilder();
    sb.append(status).append(" cpus ").append(cpus).append(" (housekeeping ").append(housekeeping);
    sb.append(") by ").append(mechanism).append(", owner pid ").append(ownerPid).append('\n');
    if (!refusal.isEmpty()) {
      sb.append("  refused: ").append(refusal).append('\n');
    }
    recovered.forEach(r -> sb.append("  recovered: ").append(r).append('\n'));
    reasons.forEach(r -> sb.append("  why: ").append(r).append('\n'));
    for (Change.Kind k : Change.Kind.values()) {
      List<Change> of = changes(k);
      if (!of.isEmpty()) {
        sb.append("  ").append(k.name().toLowerCase(java.util.Locale.ROOT)).append(':');
        for (Change.Outcome o : Change.Outcome.values()) {
          long n = count(k, o);
          if (n > 0) {
            sb.append(' ')
                .append(n)
                .append(' ')
                .append(o.name().toLowerCase(java.util.Locale.ROOT));
          }
        }
        sb.append('\n');
        of.stream()
            .filter(c -> c.outcome() == Change.Outcome.FAILED || c.outcome() == Change.Outcome.LEFT)
            .limit(10)
            .forEach(c -> sb.append("    ").append(c).append('\n'));
      }
    }
    residues.forEach(r -> sb.append("  stays: ").append(r).append('\n'));
    if (!bootCommandLine.isEmpty()) {
      sb.append("  at boot: ").append(bootCommandLine).append('\n');
    }
    if (!journal.isEmpty()) {
      sb.append("  journal: ").append(journal).append('\n');
    }
    return sb.toString();
  }
}
