package io.github.affinitykit.isolation;

import io.github.affinitykit.core.internal.Mounts;
import io.github.affinitykit.core.internal.Mounts.Mount;
import io.github.affinitykit.core.internal.SysFs;
import java.util.List;
import java.util.Optional;

/**
 * Where this process sits in the cgroup hierarchies that can hold cpusets: the cgroup v2 mount and
 * this process's v2 cgroup, the cgroup v1 cpuset mount and this process's cpuset.
 *
 * <p>Thread safety: immutable.
 *
 * @param v2 the cgroup2 mount, if any
 * @param v2Path this process's v2 cgroup ({@code 0::} line of {@code /proc/self/cgroup})
 * @param v1 the v1 cpuset mount, if any
 * @param v1Path this process's v1 cpuset
 */
record Cgroups(Optional<Mount> v2, String v2Path, Optional<Mount> v1, String v1Path) {

  static Cgroups read(SysFs fs) {
    List<Mount> mounts = Mounts.read(fs).all();
    String v2Path = "/";
    String v1Path = "/";
    for (String line : fs.lines("/proc/self/cgroup")) {
      String[] f = line.split(":", 3);
      if (f.length == 3 && f[0].equals("0") && f[1].isEmpty()) {
        v2Path = f[2];
      } else if (f.length == 3 && List.of(f[1].split(",")).contains("cpuset")) {
        v1Path = f[2];
      }
    }
    Optional<Mount> v2 = mounts.stream().filter(m -> m.type().equals("cgroup2")).findFirst();
    return new Cgroups(v2, v2Path, mounts.stream().filter(Mount::cpusetV1).findFirst(), v1Path);
  }

  /** The directory of this process's v2 cgroup (the mount itself inside a cgroup namespace). */
  String v2Dir(SysFs fs) {
    String point = v2.orElseThrow().point();
    String dir = Mounts.join(point, v2Path);
    return fs.exists(dir) ? dir : point;
  }

  /** The directory of this process's v1 cpuset. */
  String v1Dir(SysFs fs) {
    String point = v1.orElseThrow().point();
    String dir = Mounts.join(point, v1Path);
    return fs.exists(dir) ? dir : point;
  }

  /** The v1 cpuset file prefix: {@code cpuset.}, or none on the legacy filesystem. */
  String v1Prefix() {
    return v1.map(m -> m.noPrefix() ? "" : "cpuset.").orElse("cpuset.");
  }
}
