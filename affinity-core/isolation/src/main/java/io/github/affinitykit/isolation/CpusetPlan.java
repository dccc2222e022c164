package io.github.affinitykit.isolation;

import io.github.affinitykit.core.cpu.CpuSet;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * cgroup v1 cpusets, as {@code cset shield} makes them: beside the JVM's cpuset, one set with only
 * the CPUs for the pinned threads ({@code affinitykit-<id>-iso}) and one with the rest of its CPUs
 * for every other movable user task of the JVM's cpuset ({@code affinitykit-<id>-rest}); kernel
 * threads (cgroup v1 refuses to move kthreadd) and tasks in other cpusets are shielded by affinity.
 * Moving a task between cpusets rewrites its mask: recorded, to be put back.
 *
 * <p>Thread safety: stateless.
 */
final class CpusetPlan {
  private static final String TASKS = Writable.TASKS;

  private CpusetPlan() {}

  static List<Step> steps(Scene s) {
    KernelFiles files = s.files();
    String home = s.cgroups().v1Dir(files.fs());
    String p = s.cgroups().v1Prefix();
    String mems = first(files, home + "/" + p + "mems", home + "/" + p + "effective_mems");
    CpuSet all =
        CpuSet.parse(first(files, home + "/" + p + "cpus", home + "/" + p + "effective_cpus"));
    String iso = s.kitDir(home, "-iso");
    String rest = s.kitDir(home, "-rest");
    List<Step> out = new ArrayList<>();
    out.add(new DirStep(iso, home, TASKS));
    out.add(WriteStep.created(Writable.kitFile(iso, p + "cpus"), s.cpus().toString()));
    out.add(WriteStep.created(Writable.kitFile(iso, p + "mems"), mems));
    out.add(new DirStep(rest, home, TASKS));
    out.add(WriteStep.created(Writable.kitFile(rest, p + "cpus"), all.minus(s.cpus()).toString()));
    out.add(WriteStep.created(Writable.kitFile(rest, p + "mems"), mems));
    Set<Integer> members = new HashSet<>();
    for (String line : files.read(home + "/" + TASKS).orElse("").split("\n")) {
      if (!line.isBlank()) {
        members.add(Integer.parseInt(line.strip()));
      }
    }
    Set<Integer> moved = new HashSet<>();
    for (Task t : s.tasks()) {
      if (s.owners().contains(t.tid())) {
        out.add(new JoinStep(t.pid(), t.tid(), t.name(), iso, home, TASKS, true));
      } else if (members.contains(t.tid()) && s.movable(t) && !t.kernelThread()) {
        out.add(new JoinStep(t.pid(), t.tid(), t.name(), rest, home, TASKS, false));
        moved.add(t.tid());
      }
    }
    out.addAll(TaskPlan.byKernel(s, moved));
    Set<Integer> others = new HashSet<>();
    s.tasks().stream()
        .filter(t -> !moved.contains(t.tid()) && !s.owners().contains(t.tid()))
        .forEach(t -> others.add(t.tid()));
    if (!others.isEmpty()) {
      out.addAll(TaskPlan.shield(s, others));
    }
    return out;
  }

  private static String first(KernelFiles files, String a, String b) {
    return files.read(a).filter(t -> !t.isBlank()).or(() -> files.read(b)).orElse("");
  }
}
