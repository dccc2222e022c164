package io.github.affinitykit.core.host;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.Mounts;
import io.github.affinitykit.core.internal.Mounts.Mount;
import io.github.affinitykit.core.internal.SysFs;
import java.util.List;
import java.util.Optional;

/**
 * Finds the cpuset cgroup of this process under a root: cgroup v1 (including the legacy {@code
 * cpuset} filesystem) first, since a controller bound to v1 is absent from v2; then cgroup v2.
 *
 * <p>Thread safety: stateless.
 */
final class CgroupProbe {
  private final SysFs fs;

  CgroupProbe(SysFs fs) {
    this.fs = fs;
  }

  CgroupCpuset probe() {
    List<Mount> mounts = Mounts.read(fs).all();
    List<String> cgroupLines = fs.lines("/proc/self/cgroup");
    for (Mount m : mounts) {
      if (m.cpusetV1()) {
        Optional<CgroupCpuset> v1 = v1(m, m.noPrefix(), cgroupLines);
        if (v1.isPresent()) {
          return v1.get();
        }
      }
    }
    for (Mount m : mounts) {
      if (m.type().equals("cgroup2")) {
        Optional<CgroupCpuset> v2 = v2(m, cgroupLines);
        if (v2.isPresent()) {
          return v2.get();
        }
      }
    }
    return CgroupCpuset.none();
  }

  private Optional<CgroupCpuset> v1(Mount m, boolean noPrefix, List<String> cgroupLines) {
    String path = fs.read("/proc/self/cpuset").orElse("/");
    for (String line : cgroupLines) {
      String[] f = line.split(":", 3);
      if (f.length == 3 && List.of(f[1].split(",")).contains("cpuset")) {
        path = f[2];
      }
    }
    String dir = join(m.point(), path);
    if (!fs.exists(dir)) {
      dir = m.point(); // inside a cgroup namespace the mount root is our own cgroup
    }
    String p = noPrefix ? "" : "cpuset.";
    for (String file : List.of(p + "effective_cpus", p + "cpus")) {
      String f = join(dir, file);
      Optional<String> text = fs.read(f);
      if (text.isPresent()) {
        return Optional.of(
            new CgroupCpuset(1, path, SysFs.hostList(text.get()), "", CpuSet.empty(), f));
      }
    }
    return Optional.empty();
  }

  private Optional<CgroupCpuset> v2(Mount m, List<String> cgroupLines) {
    String path = "/";
    for (String line : cgroupLines) {
      if (line.startsWith("0::")) {
        path = line.substring(3);
      }
    }
    CpuSet isolated =
        fs.read(join(m.point(), "cpuset.cpus.isolated"))
            .map(SysFs::hostList)
            .orElse(CpuSet.empty());
    String partition = "";
    for (String dir = path; dir != null; dir = parent(dir)) {
      String base = fs.exists(join(m.point(), dir)) ? join(m.point(), dir) : m.point();
      if (partition.isEmpty()) {
        partition = fs.read(join(base, "cpuset.cpus.partition")).orElse("");
      }
      String f = join(base, "cpuset.cpus.effective");
      Optional<String> text = fs.read(f);
      if (text.isPresent()) {
        return Optional.of(
            new CgroupCpuset(2, path, SysFs.hostList(text.get()), partition, isolated, f));
      }
    }
    return Optional.empty();
  }

  private static String parent(String dir) {
    if (dir.equals("/") || dir.isEmpty()) {
      return null;
    }
    int slash = dir.lastIndexOf('/');
    return slash <= 0 ? "/" : dir.substring(0, slash);
  }

  private static String join(String a, String b) {
    return Mounts.join(a, b);
  }
}
