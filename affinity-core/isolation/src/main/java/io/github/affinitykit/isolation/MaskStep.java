package io.github.affinitykit.isolation;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.os.AffinityException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A task's affinity: narrowed off the isolated CPUs by the isolation ({@code set}), or by the
 * kernel when a cgroup gives the CPUs up (then only recorded and checked). Undoing puts the mask
 * from before back when the task still has a mask the isolation explains (the narrowed one, the
 * housekeeping CPUs, or every online CPU, which is what a cgroup given its CPUs back sets on Linux
 * 6.1); a mask someone else chose meanwhile is left alone and reported.
 *
 * <p>Thread safety: immutable.
 *
 * @param pid the task's process
 * @param tid the task
 * @param startTicks its start time, so that a new task with the same id is never touched: checked
 *     before its mask is set and before it is put back
 * @param name its name
 * @param before its mask before
 * @param after its mask while isolated
 * @param set whether the isolation sets it (else the kernel does)
 */
record MaskStep(
    int pid, int tid, long startTicks, String name, CpuSet before, CpuSet after, boolean set)
    implements Step {

  MaskStep {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(before, "before");
    Objects.requireNonNull(after, "after");
  }

  @Override
  public Change planned() {
    String detail = set ? "" : "by the kernel";
    return new Change(
        Change.Kind.TASK,
        tid,
        name + " pid " + pid,
        before.toString(),
        after.toString(),
        Change.Outcome.PLANNED,
        detail);
  }

  @Override
  public boolean essential() {
    return false;
  }

  @Override
  public Change apply(Kernel kernel) {
    if (set && kernel.task(pid, tid, startTicks).isEmpty()) {
      // checked before the mask is set: a new task that got the id meanwhile is never narrowed
      return planned().with(Change.Outcome.GONE, "ended");
    }
    if (set) {
      try {
        kernel.affinity().set(tid, after);
      } catch (AffinityException e) {
        return e.errnoName().equals("ESRCH")
            ? planned().with(Change.Outcome.GONE, "ended")
            : planned().with(Change.Outcome.FAILED, Step.why(e));
      }
    }
    Optional<Task> now = kernel.task(pid, tid, startTicks);
    if (now.isEmpty()) {
      return planned().with(Change.Outcome.GONE, "ended");
    }
    CpuSet still = now.get().mask().minus(after).intersect(before);
    return still.isEmpty()
        ? planned().with(Change.Outcome.DONE, planned().detail())
        : planned().with(Change.Outcome.FAILED, "still allowed on " + still);
  }

  @Override
  public Change undo(Kernel kernel) {
    Optional<Task> now = kernel.task(pid, tid, startTicks);
    if (now.isEmpty()) {
      return planned().with(Change.Outcome.GONE, "ended");
    }
    CpuSet mask = now.get().mask();
    if (mask.equals(before)) {
      return planned().with(Change.Outcome.UNCHANGED, "");
    }
    if (!mask.equals(after)
        && !mask.equals(kernel.housekeeping())
        && !mask.equals(kernel.online())) {
      return planned()
          .with(Change.Outcome.LEFT, "now " + mask + ": changed by someone else while isolated");
    }
    try {
      kernel.affinity().set(tid, before);
    } catch (AffinityException e) {
      return e.errnoName().equals("ESRCH")
          ? planned().with(Change.Outcome.GONE, "ended")
          : planned().with(Change.Outcome.FAILED, Step.why(e));
    }
    CpuSet read = kernel.task(pid, tid, startTicks).map(Task::mask).orElse(before);
    return read.equals(before)
        ? planned().with(Change.Outcome.RESTORED, "")
        : planned().with(Change.Outcome.FAILED, "reads " + read + ", not " + before);
  }

  @Override
  public List<String> paths() {
    return List.of(); // a task's mask, set through the kernel: no file
  }

  @Override
  public String journal() {
    return String.join(
        " ",
        "task",
        Integer.toString(pid),
        Integer.toString(tid),
        Long.toString(startTicks),
        Escape.encode(name),
        Escape.encode(before.toString()),
        Escape.encode(after.toString()),
        set ? "1" : "0");
  }

  static MaskStep parse(List<String> f) {
    Step.expect("task", f, 7);
    return new MaskStep(
        Integer.parseInt(f.get(0)),
        Integer.parseInt(f.get(1)),
        Long.parseLong(f.get(2)),
        Escape.decode(f.get(3)),
        CpuSet.parse(Escape.decode(f.get(4))),
        CpuSet.parse(Escape.decode(f.get(5))),
        f.get(6).equals("1"));
  }
}
