package io.github.affinitykit.isolation;

import io.github.affinitykit.core.cpu.CpuSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A cgroup v2 {@code isolated} partition holding only the pinned threads: a threaded child of the
 * JVM's cgroup (the JVM's cgroup becomes its thread root), cpuset enabled for it, its CPUs, the
 * owners' threads moved in while it is still a member, then {@code isolated}. For a remote
 * partition the CPUs are first claimed in {@code cpuset.cpus.exclusive} of every ancestor below the
 * root. The kernel then takes the CPUs from every other cgroup, which rewrites their tasks' masks:
 * those are recorded to be put back.
 *
 * <p>Thread safety: stateless.
 */
final class PartitionPlan {
  static final String THREADS = Writable.THREADS;
  private static final String PARTITION = "cpuset.cpus.partition";

  private PartitionPlan() {}

  static List<Step> steps(Scene s, boolean remote) {
    KernelFiles files = s.files();
    String point = s.cgroups().v2().orElseThrow().point();
    String home = s.cgroups().v2Dir(files.fs());
    String dir = s.kitDir(home, "");
    List<Step> out = new ArrayList<>();
    out.add(new DirStep(dir, home, THREADS));
    out.add(WriteStep.created(Writable.kitFile(dir, "cgroup.type"), "threaded"));
    String control = Writable.homeFile(home, "cgroup.subtree_control");
    String enabled = files.raw(control).orElse("");
    if (!List.of(enabled.strip().split(" ")).contains("cpuset")) {
      out.add(
          new WriteStep(
              Change.Kind.CGROUP, WriteStep.Undo.TEXT, control, enabled, "+cpuset", "-cpuset"));
    }
    if (remote) {
      for (String a : ancestors(point, home)) {
        String f = Writable.ancestorFile(a);
        String before = files.raw(f).orElse("");
        CpuSet claimed = parse(before).union(s.cpus());
        out.add(WriteStep.restoring(Change.Kind.CGROUP, f, before, claimed + "\n"));
      }
      out.add(WriteStep.created(Writable.kitFile(dir, Writable.EXCLUSIVE), s.cpus().toString()));
    }
    out.add(WriteStep.created(Writable.kitFile(dir, "cpuset.cpus"), s.cpus().toString()));
    for (Task t : s.tasks()) {
      if (s.owners().contains(t.tid())) {
        out.add(new JoinStep(t.pid(), t.tid(), t.name(), dir, home, THREADS, true));
      }
    }
    out.add(
        new WriteStep(
            Change.Kind.CGROUP,
            WriteStep.Undo.TEXT,
            Writable.kitFile(dir, PARTITION),
            "member\n",
            "isolated",
            "member"));
    out.addAll(TaskPlan.byKernel(s, Set.of()));
    return out;
  }

  /** Why the partition did not take, if it did not: the kernel's own words. */
  static Optional<String> check(KernelFiles files, List<Step> steps) {
    for (Step step : steps) {
      if (step instanceof WriteStep w && w.path().endsWith("/" + PARTITION)) {
        String now = files.read(w.path()).orElse("(unreadable)");
        return now.equals("isolated")
            ? Optional.empty()
            : Optional.of(w.path() + " reads \"" + now + "\"");
      }
    }
    return Optional.empty();
  }

  /** The cgroups from the root's child down to {@code home}, which claim the CPUs exclusive. */
  private static List<String> ancestors(String point, String home) {
    List<String> out = new ArrayList<>();
    String rel = home.substring(point.length());
    StringBuilder path =
        new StringBuilder(point.endsWith("/") ? point.substring(0, point.length() - 1) : point);
    for (String part : rel.split("/")) {
      if (!part.isEmpty()) {
        path.append('/').append(part);
        out.add(path.toString());
      }
    }
    return out;
  }

  private static CpuSet parse(String list) {
    try {
      return CpuSet.parse(list.strip());
    } catch (IllegalArgumentException e) {
      return CpuSet.empty();
    }
  }
}
