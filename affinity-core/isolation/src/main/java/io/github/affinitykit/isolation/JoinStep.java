package io.github.affinitykit.isolation;

import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * Moves one thread into a cgroup ({@code cgroup.threads} in v2, {@code tasks} in v1). Undoing moves
 * it back to {@code home} if it is still there.
 *
 * <p>Thread safety: immutable.
 *
 * @param pid the thread's process
 * @param tid the thread
 * @param name the thread's name, for reports
 * @param dir the cgroup it joins
 * @param home the cgroup it came from
 * @param tasksFile {@code cgroup.threads} or {@code tasks}
 * @param essential whether the isolation cannot hold without it (a pinned thread)
 */
record JoinStep(
    int pid, int tid, String name, String dir, String home, String tasksFile, boolean essential)
    implements Step {

  JoinStep {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(dir, "dir");
    Objects.requireNonNull(home, "home");
    Objects.requireNonNull(tasksFile, "tasksFile");
  }

  @Override
  public Change planned() {
    return new Change(
        Change.Kind.THREAD,
        tid,
        name + " pid " + pid,
        home,
        dir,
        Change.Outcome.PLANNED,
        essential ? "pinned thread" : "");
  }

  @Override
  public Change apply(Kernel kernel) {
    try {
      kernel.files().write(dir + "/" + tasksFile, Integer.toString(tid));
      return planned().with(Change.Outcome.DONE, planned().detail());
    } catch (IOException e) {
      return planned().with(Change.Outcome.FAILED, Step.why(e));
    }
  }

  @Override
  public Change undo(Kernel kernel) {
    String members = kernel.files().read(dir + "/" + tasksFile).orElse("");
    if (!List.of(members.split("\n")).contains(Integer.toString(tid))) {
      return planned().with(Change.Outcome.GONE, "not in " + dir + " any more");
    }
    try {
      kernel.files().write(home + "/" + tasksFile, Integer.toString(tid));
      return planned().with(Change.Outcome.RESTORED, "");
    } catch (IOException e) {
      return planned().with(Change.Outcome.FAILED, Step.why(e));
    }
  }

  @Override
  public List<String> paths() {
    return List.of(dir, dir + "/" + tasksFile, home + "/" + tasksFile);
  }

  @Override
  public String journal() {
    return String.join(
        " ",
        "join",
        Integer.toString(pid),
        Integer.toString(tid),
        Escape.encode(name),
        Escape.encode(dir),
        Escape.encode(home),
        Escape.encode(tasksFile),
        essential ? "1" : "0");
  }

  static JoinStep parse(List<String> f) {
    Step.expect("join", f, 7);
    return new JoinStep(
        Integer.parseInt(f.get(0)),
        Integer.parseInt(f.get(1)),
        Escape.decode(f.get(2)),
        Escape.decode(f.get(3)),
        Escape.decode(f.get(4)),
        Escape.decode(f.get(5)),
        f.get(6).equals("1"));
  }
}
