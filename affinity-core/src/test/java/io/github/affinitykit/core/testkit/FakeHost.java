package io.github.affinitykit.core.testkit;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import java.nio.file.Path;

/**
 * Writes a small synthetic {@code sys/} + {@code proc/} tree: {@code cpus} CPUs, {@code smt}
 * threads per core (sibling of cpu c is c + cores, Intel-style), one package, one NUMA node.
 */
public final class FakeHost {
  private final Path root;

  private FakeHost(Path root) {
    this.root = root;
  }

  public static FakeHost create(Path root, int cpus, int smt) {
    FakeHost h = new FakeHost(root);
    int cores = cpus / smt;
    CpuSet all = CpuSet.range(0, cpus - 1);
    h.file("sys/devices/system/cpu/possible", all.toString());
    h.file("sys/devices/system/cpu/present", all.toString());
    h.file("sys/devices/system/cpu/online", all.toString());
    h.file("sys/devices/system/cpu/offline", "");
    h.file("sys/devices/system/node/node0/cpulist", all.toString());
    h.file("sys/devices/system/node/node0/distance", "10");
    for (int c = 0; c < cpus; c++) {
      String t = "sys/devices/system/cpu/cpu" + c + "/topology/";
      int core = c % cores;
      CpuSet siblings = CpuSet.empty();
      for (int s = 0; s < smt; s++) {
        siblings = siblings.union(CpuSet.of(core + s * cores));
      }
      h.file(t + "physical_package_id", "0");
      h.file(t + "die_id", "0");
      h.file(t + "core_id", String.valueOf(core));
      h.file(t + "core_cpus_list", siblings.toString());
      h.file(t + "thread_siblings_list", siblings.toString());
      h.file(t + "package_cpus_list", all.toString());
      h.file(t + "core_siblings_list", all.toString());
      String cache = "sys/devices/system/cpu/cpu" + c + "/cache/index3/";
      h.file(cache + "level", "3");
      h.file(cache + "type", "Unified");
      h.file(cache + "shared_cpu_list", all.toString());
    }
    h.file("proc/cmdline", "BOOT_IMAGE=/vmlinuz ro quiet");
    h.allowed(all.toString());
    return h;
  }

  public FakeHost allowed(String list) {
    return file("proc/self/status", "Name:\tjava\nCpus_allowed_list:\t" + list + "\n");
  }

  public FakeHost isolated(String list) {
    file("sys/devices/system/cpu/isolated", list);
    return file("proc/cmdline", "ro isolcpus=" + list);
  }

  public FakeHost cgroupV2(String path, String effective) {
    file("proc/self/mounts", "cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid 0 0\n");
    file("proc/self/cgroup", "0::" + path + "\n");
    file("sys/fs/cgroup/cpuset.cpus.effective", "0-1023");
    return file("sys/fs/cgroup" + path + "/cpuset.cpus.effective", effective);
  }

  public FakeHost file(String relative, String text) {
    new FakeHostFiles(root).file(relative, text);
    return this;
  }

  public Path root() {
    return root;
  }

  public HostCpus probe() {
    return HostCpus.probe(root);
  }
}
