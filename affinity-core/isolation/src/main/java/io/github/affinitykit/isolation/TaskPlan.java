package io.github.affinitykit.isolation;

import io.github.affinitykit.core.cpu.CpuSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The isolation's part about tasks: who may not be moved (a process pinned only to the CPUs), and
 * each movable task's mask change, made by the isolation (the shield) or recorded to be made by the
 * kernel (a cgroup giving the CPUs up) so that it can be undone either way.
 *
 * <p>Thread safety: stateless.
 */
final class TaskPlan {
  private static final int MAX_NAMES = 5;

  private TaskPlan() {}

  /**
   * User tasks other than the owners that may run only on the CPUs: someone pinned them there, and
   * isolating would move them. Each is a sentence; empty if none.
   */
  static List<String> conflicts(Scene s) {
    List<String> out = new ArrayList<>();
    for (Task t : s.tasks()) {
      if (!t.kernelThread() && !s.owners().contains(t.tid()) && s.cpus().containsAll(t.mask())) {
        out.add(
            "pid "
                + t.pid()
                + " thread "
                + t.label()
                + " may run only on CPUs "
                + t.mask()
                + ": isolating would move it off the CPUs it was pinned to; free them first");
      }
    }
    return out.size() > MAX_NAMES ? out.subList(0, MAX_NAMES) : out;
  }

  /** The shield: every movable task allowed on the CPUs gets a narrowed mask. */
  static List<Step> shield(Scene s, Set<Integer> only) {
    List<Step> out = new ArrayList<>();
    for (Task t : s.tasks()) {
      boolean included = only.isEmpty() || only.contains(t.tid());
      if (included && s.movable(t) && t.mask().intersects(s.cpus())) {
        out.add(step(s, t, true));
      }
    }
    return out;
  }

  /**
   * The masks a cgroup change makes the kernel rewrite, recorded: every movable task of {@code
   * tids} (all when empty), since Linux 6.1 resets every mask of a cgroup whose CPUs change.
   */
  static List<Step> byKernel(Scene s, Set<Integer> tids) {
    List<Step> out = new ArrayList<>();
    for (Task t : s.tasks()) {
      if ((tids.isEmpty() || tids.contains(t.tid())) && s.movable(t)) {
        out.add(step(s, t, false));
      }
    }
    return out;
  }

  private static MaskStep step(Scene s, Task t, boolean set) {
    return new MaskStep(
        t.pid(), t.tid(), t.startTicks(), t.name(), t.mask(), s.narrowed(t.mask()), set);
  }

  /** Masks of tasks still allowed on the CPUs after the first pass: started meanwhile. */
  static List<Step> secondPass(Scene s, List<Task> now) {
    return shield(
        new Scene(
            s.files(),
            s.host(),
            s.cgroups(),
            now,
            s.cpus(),
            s.housekeeping(),
            s.owners(),
            s.self()),
        Set.of());
  }

  /** Names of tasks, at most a few, for a report line. */
  static String names(List<Task> tasks) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < Math.min(MAX_NAMES, tasks.size()); i++) {
      names.add(tasks.get(i).name());
    }
    return String.join(", ", names) + (tasks.size() > MAX_NAMES ? ", ..." : "");
  }

  /** The CPUs of {@code s} that a task mask of exactly one CPU names. */
  static boolean perCpu(Task t, CpuSet cpus) {
    return t.mask().size() == 1 && cpus.contains(t.mask().first());
  }
}
