package io.github.affinitykit.isolation;

import io.github.affinitykit.core.cpu.CpuSet;
import java.util.Objects;

/**
 * An isolation found by its journal, for the doctor and {@code release}: whose it is and whether
 * its owner still runs.
 *
 * <p>Thread safety: immutable.
 *
 * @param journal the journal file
 * @param ownerPid the isolating process, -1 if unreadable
 * @param owner what became of it
 * @param cpus the isolated CPUs
 * @param mechanism the mechanism
 * @param problem why the journal is not read or replayed (not to be trusted, unreadable, its owner
 *     unknown), with the rule it breaks; empty if it is
 */
public record IsolationJournal(
    String journal,
    long ownerPid,
    OwnerState owner,
    CpuSet cpus,
    Mechanism mechanism,
    String problem) {

  /**
   * Validates.
   *
   * @param journal the journal file's path; not null
   * @param ownerPid the isolating process's pid, -1 if unreadable
   * @param owner what became of it; {@link OwnerState#UNKNOWN} for an unreadable journal; not null
   * @param cpus the isolated CPUs, empty if unreadable; not null
   * @param mechanism the mechanism, {@link Mechanism#NONE} if unreadable; not null
   * @param problem why the journal cannot be read; empty unless {@code owner} is {@code UNKNOWN}
   * @throws IllegalArgumentException if a problem is given for a journal that could be read
   */
  public IsolationJournal {
    Objects.requireNonNull(journal, "journal");
    Objects.requireNonNull(cpus, "cpus");
    Objects.requireNonNull(mechanism, "mechanism");
    Objects.requireNonNull(problem, "problem");
    if (Objects.requireNonNull(owner, "owner") != OwnerState.UNKNOWN && !problem.isEmpty()) {
      throw new IllegalArgumentException(
          "problem: "
              + problem
              + " (expected: none unless the owner is UNKNOWN, not "
              + owner
              + ")");
    }
  }

  /**
   * One sentence: whose, which CPUs, and what to do.
   *
   * @return the sentence, no final period; for a journal refused or unreadable, its path and the
   *     problem ({@code refused, never read: journal: ... (expected: ...)})
   */
  public String describe() {
    if (!problem.isEmpty()) {
      return journal + ": " + problem;
    }
    String head = "CPUs " + cpus + " isolated by pid " + ownerPid + " (" + mechanism + ")";
    switch (owner) {
      case ALIVE:
        return head + ", which still runs";
      case DEAD:
        return head + ", which is dead: run release to undo it (journal " + journal + ")";
      case EARLIER_BOOT:
        return head + " before the last reboot: nothing left to undo (journal " + journal + ")";
      default:
        return head;
    }
  }
}
