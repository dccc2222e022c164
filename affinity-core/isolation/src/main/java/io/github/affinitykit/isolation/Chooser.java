package io.github.affinitykit.isolation;

import io.github.affinitykit.core.internal.Mounts;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Picks the mechanisms this host allows, best first, and says why each better one is not: cgroup v2
 * partition (the JVM in the root cgroup) or remote partition (deeper, {@code cpuset.cpus.exclusive}
 * present), cgroup v1 cpuset, affinity shield. The kernel may still refuse a cgroup at apply time;
 * the isolation then undoes it and takes the next candidate.
 *
 * <p>Thread safety: stateless.
 */
final class Chooser {
  /**
   * The outcome.
   *
   * @param candidates the usable mechanisms, best first (the shield last, always usable)
   * @param reasons why each mechanism better than the first candidate is not usable
   */
  record Choice(List<Mechanism> candidates, List<String> reasons) {
    Choice {
      candidates = List.copyOf(candidates);
      reasons = List.copyOf(reasons);
    }
  }

  private Chooser() {}

  static Choice choose(KernelFiles files, Cgroups cgroups, Set<Mechanism> allowed) {
    List<Mechanism> out = new ArrayList<>();
    List<String> why = new ArrayList<>();
    v2(files, cgroups, why).ifPresentOrElse(out::add, () -> {});
    v1(files, cgroups, why).ifPresentOrElse(out::add, () -> {});
    out.add(Mechanism.AFFINITY_SHIELD);
    out.removeIf(m -> !allowed.contains(m));
    for (Mechanism m : Mechanism.values()) {
      if (m != Mechanism.NONE && !allowed.contains(m)) {
        why.add(m + ": not allowed by the caller");
      }
    }
    return new Choice(out, why);
  }

  private static java.util.Optional<Mechanism> v2(
      KernelFiles files, Cgroups cgroups, List<String> why) {
    if (cgroups.v2().isEmpty()) {
      why.add("cgroup v2 partition: no cgroup2 filesystem mounted");
      return java.util.Optional.empty();
    }
    String point = cgroups.v2().get().point();
    String controllers = files.read(Mounts.join(point, "cgroup.controllers")).orElse("");
    if (!List.of(controllers.split(" ")).contains("cpuset")) {
      why.add(
          "cgroup v2 partition: the cpuset controller is not available on cgroup v2 at "
              + point
              + " (bound to a v1 hierarchy, or not built in)");
      return java.util.Optional.empty();
    }
    String dir = cgroups.v2Dir(files.fs());
    if (!files.writable(dir)) {
      why.add("cgroup v2 partition: " + dir + " is not writable (read-only, or not delegated)");
      return java.util.Optional.empty();
    }
    if (dir.equals(point)) {
      return java.util.Optional.of(Mechanism.CGROUP_V2_PARTITION);
    }
    if (files.exists(Mounts.join(dir, "cpuset.cpus.exclusive"))) {
      why.add(
          "cgroup v2 partition: the JVM is in "
              + cgroups.v2Path()
              + ", not the root cgroup: a remote partition instead");
      return java.util.Optional.of(Mechanism.CGROUP_V2_REMOTE_PARTITION);
    }
    why.add(
        "cgroup v2 partition: the JVM is in "
            + cgroups.v2Path()
            + "; a partition there needs every ancestor to be a partition root, or a remote"
            + " partition (cpuset.cpus.exclusive, Linux 6.7+), which "
            + (files.exists(Mounts.join(dir, "cpuset.cpus"))
                ? "this kernel lacks"
                : "needs cpuset enabled for it (its parent's cgroup.subtree_control lacks cpuset)"));
    return java.util.Optional.empty();
  }

  private static java.util.Optional<Mechanism> v1(
      KernelFiles files, Cgroups cgroups, List<String> why) {
    if (cgroups.v1().isEmpty()) {
      why.add("cgroup v1 cpuset: no cgroup v1 cpuset hierarchy mounted");
      return java.util.Optional.empty();
    }
    String dir = cgroups.v1Dir(files.fs());
    if (!files.writable(dir)) {
      why.add("cgroup v1 cpuset: " + dir + " is not writable");
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(Mechanism.CGROUP_V1_CPUSET);
  }
}
