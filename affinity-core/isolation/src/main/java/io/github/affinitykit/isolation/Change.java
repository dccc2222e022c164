package io.github.affinitykit.isolation;

import java.util.Objects;

/**
 * One change the isolation made, plans or undid: a task's affinity, an IRQ's affinity, a kernel or
 * cgroup file, a cgroup created, a thread moved between cgroups.
 *
 * <p>Thread safety: immutable.
 *
 * @param kind what was changed
 * @param id the task's tid or the IRQ's number; -1 for files and cgroups
 * @param name the task's name and pid, the IRQ's, or the file's path
 * @param before the value before the isolation (a CPU list, a file's exact text)
 * @param after the value while isolated
 * @param outcome what happened to it
 * @param detail the kernel's error or a fact worth saying; empty if none
 */
public record Change(
    Kind kind, int id, String name, String before, String after, Outcome outcome, String detail) {

  /** What a change is about. */
  public enum Kind {
    /** A task's CPU affinity (set by the isolation, or by the kernel for a cgroup). */
    TASK,
    /** An IRQ's {@code smp_affinity}. */
    IRQ,
    /** A kernel file: {@code default_smp_affinity}, the workqueue cpumask. */
    FILE,
    /** A cgroup file or directory. */
    CGROUP,
    /** A thread moved into or out of a cgroup. */
    THREAD
  }

  /** What became of a change. */
  public enum Outcome {
    /** Planned only (a dry run, or before applying). */
    PLANNED,
    /** Applied. */
    DONE,
    /** The kernel refused it; the value stays as it was (see the detail). */
    FAILED,
    /** Undone: the value read back equals the one before the isolation. */
    RESTORED,
    /** Already at its value before the isolation: nothing to undo. */
    UNCHANGED,
    /** Changed by someone else meanwhile: left as it is (see the detail). */
    LEFT,
    /** The task ended, or the file is gone: nothing to undo. */
    GONE
  }

  /**
   * Validates.
   *
   * @param kind what was changed; not null
   * @param id the task's tid or the IRQ's number; -1 for files and cgroups
   * @param name the task's name and pid, the IRQ's, or the file's path; not null
   * @param before the value before the isolation, exactly as read; not null
   * @param after the value while isolated; not null
   * @param outcome what happened to it; not null
   * @param detail the kernel's error or a fact worth saying, empty if none; not null
   */
  public Change {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(before, "before");
    Objects.requireNonNull(after, "after");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(detail, "detail");
  }

  /** The same change with another outcome and detail. */
  Change with(Outcome newOutcome, String newDetail) {
    return new Change(kind, id, name, before, after, newOutcome, newDetail);
  }

  @Override
  public String toString() {
    return kind
        + " "
        + name
        + ": "
        + before.strip()
        + " -> "
        + after.strip()
        + " "
        + outcome
        + (detail.isEmpty() ? "" : " (" + detail + ")");
  }
}
