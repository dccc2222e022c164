package io.github.affinitykit.isolation;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Applies a journal's steps in order and undoes them. Undoing runs in two phases: every file,
 * cgroup and thread step in reverse order first, then the task masks, because a mask can only be
 * put back once the cgroup that narrowed it has given its CPUs back (the kernel intersects a new
 * mask with the task's cpuset).
 *
 * <p>Thread safety: stateless.
 */
final class Applier {
  /**
   * What applying gave.
   *
   * @param changes one per step applied, in order
   * @param failure the essential step that failed, with the kernel's words; empty if none
   */
  record Applied(List<Change> changes, Optional<String> failure) {
    Applied {
      changes = List.copyOf(changes);
    }
  }

  private Applier() {}

  /** Applies steps until an essential one fails (the rest are then not applied). */
  static Applied apply(Kernel kernel, List<Step> steps) {
    List<Change> out = new ArrayList<>();
    for (Step step : steps) {
      Change c = step.apply(kernel);
      out.add(c);
      if (step.essential() && c.outcome() == Change.Outcome.FAILED) {
        return new Applied(out, Optional.of(c.name() + ": " + c.detail()));
      }
    }
    return new Applied(out, Optional.empty());
  }

  /** Undoes every step (idempotent for steps never applied): files and cgroups, then masks. */
  static List<Change> undo(Kernel kernel, List<Step> steps) {
    List<Change> out = new ArrayList<>();
    for (int i = steps.size() - 1; i >= 0; i--) {
      if (!(steps.get(i) instanceof MaskStep)) {
        out.add(steps.get(i).undo(kernel));
      }
    }
    for (Step step : steps) {
      if (step instanceof MaskStep) {
        out.add(step.undo(kernel));
      }
    }
    return out;
  }

  /**
   * Undoes an attempt the kernel refused part of: the steps applied (not the one that failed, which
   * changed nothing, nor those never reached), then every mask, which the cgroups may have moved.
   */
  static List<Change> rollback(Kernel kernel, List<Step> steps, Applied applied) {
    List<Step> done = new ArrayList<>();
    for (int i = 0; i < steps.size(); i++) {
      boolean reached = i < applied.changes().size();
      boolean failed = reached && applied.changes().get(i).outcome() == Change.Outcome.FAILED;
      if ((reached && !failed) || steps.get(i) instanceof MaskStep) {
        done.add(steps.get(i));
      }
    }
    return undo(kernel, done);
  }

  /** Whether every undo left its value as before (or had nothing to do). */
  static boolean clean(List<Change> undone) {
    return undone.stream().noneMatch(c -> c.outcome() == Change.Outcome.FAILED);
  }
}
