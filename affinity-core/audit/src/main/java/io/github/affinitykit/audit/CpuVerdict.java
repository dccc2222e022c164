package io.github.affinitykit.audit;

import java.util.List;
import java.util.Objects;

/**
 * The audit's answer for one CPU: is it really exclusive to its owners, and if not, who else is
 * there.
 *
 * <p>Thread safety: immutable.
 *
 * @param cpu the CPU
 * @param verdict the verdict
 * @param intruders who else is or may be there (empty when exclusive)
 * @param notes facts that do not change the verdict: unmovable per-CPU kernel threads, or why the
 *     verdict is unknown
 */
public record CpuVerdict(int cpu, Verdict verdict, List<Intruder> intruders, List<String> notes) {
  /** The verdicts. */
  public enum Verdict {
    /** Only its owners ran or may run there; no IRQ lands there; its SMT sibling was idle. */
    EXCLUSIVE,
    /** Something else runs or may run there: see the intruders. */
    INTRUDED,
    /** Not enough information (CPU offline, no procfs): see the notes. */
    UNKNOWN
  }

  /**
   * One thing sharing the CPU.
   *
   * @param kind how it shares the CPU
   * @param pid the process id, or -1 (IRQs, siblings)
   * @param tid the thread id, or -1
   * @param name the task's name, IRQ number or sibling CPU
   * @param detail what was seen, with numbers
   */
  public record Intruder(Kind kind, int pid, int tid, String name, String detail) {
    /**
     * Validates.
     *
     * @param kind how it shares the CPU; not null
     * @param pid the process id, or -1 (IRQs, siblings)
     * @param tid the thread id, or -1
     * @param name the task's name, IRQ number or sibling CPU; not null
     * @param detail what was seen, with numbers; not null
     */
    public Intruder {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(detail, "detail");
    }
  }

  /** How an intruder shares the CPU. */
  public enum Kind {
    /** A task that was seen running there during the window. */
    RAN_THERE,
    /** Tasks of a process that the scheduler may put there (their mask includes the CPU). */
    ALLOWED_THERE,
    /** An IRQ delivered there. */
    IRQ,
    /** The SMT sibling ran other work during the window: the core is shared. */
    BUSY_SIBLING
  }

  /**
   * Validates and copies.
   *
   * @param cpu the audited CPU
   * @param verdict the verdict; not null
   * @param intruders who else is or may be there, empty when exclusive; copied
   * @param notes facts that do not change the verdict; copied
   */
  public CpuVerdict {
    Objects.requireNonNull(verdict, "verdict");
    intruders = List.copyOf(intruders);
    notes = List.copyOf(notes);
  }

  /**
   * Returns whether the CPU was found exclusive.
   *
   * @return true only for {@link Verdict#EXCLUSIVE}; false for shared and unknown
   */
  public boolean exclusive() {
    return verdict == Verdict.EXCLUSIVE;
  }
}
