package io.github.affinitykit.isolation;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.testkit.FakeHost;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A fixture host for the isolation: a synthetic {@code sys/} + {@code proc/} tree (CPUs, tasks with
 * stat and status files, IRQs, cgroup mounts) under a directory in {@code target/}, and a snapshot
 * of every file in it to compare byte for byte.
 */
final class IsolationTree {
  static final long PF_KTHREAD = 0x0020_0000L;
  static final long PF_NO_SETAFFINITY = 0x0400_0000L;
  static final String ALL_CAPS = "000001ffffffffff";

  private final Path root;
  private final FakeHost host;

  private IsolationTree(Path root, int cpus) {
    this.root = root;
    this.host = FakeHost.create(root, cpus, 1);
  }

  /** A host of {@code cpus} CPUs (no SMT), root's capabilities, the test JVM's own pid listed. */
  static IsolationTree create(Path root, int cpus) {
    IsolationTree t = new IsolationTree(root, cpus);
    t.self(ALL_CAPS, "0-" + (cpus - 1));
    t.file("proc/sys/kernel/random/boot_id", "boot-1");
    long pid = ProcessHandle.current().pid();
    t.file("proc/" + pid + "/stat", stat((int) pid, "java", 0, 777, 0));
    return t;
  }

  Path root() {
    return root;
  }

  IsolationTree file(String relative, String text) {
    host.file(relative, text);
    return this;
  }

  /** This process's status: capabilities and mask. */
  IsolationTree self(String capEff, String allowed) {
    return file(
        "proc/self/status", "Name:\tjava\nCpus_allowed_list:\t" + allowed + "\nCapEff:\t" + capEff);
  }

  /** One task: its stat (flags, start time) and status (mask). */
  IsolationTree task(int pid, int tid, String name, long flags, String mask) {
    String dir = "proc/" + pid + "/task/" + tid + "/";
    file(dir + "stat", stat(tid, name, flags, 1000 + tid, CpuSet.parse(mask).first()));
    if (pid == tid) {
      file("proc/" + pid + "/stat", stat(pid, name, flags, 1000 + pid, 0));
    }
    return file(dir + "status", "Name:\t" + name + "\nCpus_allowed_list:\t" + mask);
  }

  static String stat(int id, String name, long flags, long start, int cpu) {
    StringBuilder sb = new StringBuilder().append(id).append(" (").append(name).append(") S");
    for (int field = 4; field <= 52; field++) {
      long v = field == 9 ? flags : field == 22 ? start : field == 39 ? cpu : 0;
      sb.append(' ').append(v);
    }
    return sb.toString();
  }

  /** An IRQ: its mask (hex) and where it is delivered. */
  IsolationTree irq(int irq, String hexMask, String effective) {
    String dir = "proc/irq/" + irq + "/";
    file(dir + "smp_affinity", hexMask);
    file(dir + "smp_affinity_list", CpuSet.parseMask(hexMask).toString());
    return file(dir + "effective_affinity_list", effective);
  }

  /** cgroup v2 at /sys/fs/cgroup with cpuset, the process in {@code path}. */
  IsolationTree cgroupV2(String path, String subtreeControl) {
    file("proc/self/mounts", "cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid 0 0");
    file("proc/self/cgroup", "0::" + path);
    file("sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory pids");
    file("sys/fs/cgroup/cgroup.subtree_control", subtreeControl);
    return file("sys/fs/cgroup/cpuset.cpus.effective", "0-3");
  }

  /** cgroup v1 cpuset at /sys/fs/cgroup/cpuset, the process in its root, with these tasks. */
  IsolationTree cgroupV1(String tasks) {
    file("proc/self/mounts", "cgroup /sys/fs/cgroup/cpuset cgroup rw,relatime,cpuset 0 0");
    file("proc/self/cgroup", "3:cpuset:/\n0::/");
    file("sys/fs/cgroup/cpuset/cpuset.cpus", "0-3");
    file("sys/fs/cgroup/cpuset/cpuset.effective_cpus", "0-3");
    file("sys/fs/cgroup/cpuset/cpuset.mems", "0");
    return file("sys/fs/cgroup/cpuset/tasks", tasks);
  }

  /** A typical small machine: init, a daemon, a kernel thread per CPU, kswapd, two IRQs. */
  IsolationTree typical() {
    task(1, 1, "init", 0, "0-3");
    task(200, 200, "daemon", 0, "0-3");
    task(200, 201, "daemon-worker", 0, "0-3");
    task(300, 300, "pinned-elsewhere", 0, "1");
    for (int cpu = 0; cpu < 4; cpu++) {
      task(10 + cpu, 10 + cpu, "ksoftirqd/" + cpu, PF_KTHREAD | PF_NO_SETAFFINITY, "" + cpu);
    }
    task(20, 20, "kswapd0", PF_KTHREAD, "0-3");
    task(21, 21, "kworker/u8:0", PF_KTHREAD | PF_NO_SETAFFINITY, "0-3");
    irq(24, "f", "3");
    irq(25, "1", "0");
    file("proc/irq/default_smp_affinity", "f");
    return file("sys/devices/virtual/workqueue/cpumask", "f");
  }

  /** Every file under the root with its exact bytes. */
  Map<String, String> snapshot() {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        if (Files.isRegularFile(p)) {
          out.put(root.relativize(p).toString(), Files.readString(p, StandardCharsets.UTF_8));
        } else if (Files.isDirectory(p)) {
          out.put(root.relativize(p) + "/", "");
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** A task's mask as its status file says. */
  CpuSet mask(int pid, int tid) {
    try {
      String s = Files.readString(root.resolve("proc/" + pid + "/task/" + tid + "/status"));
      return CpuSet.parse(s.substring(s.indexOf("Cpus_allowed_list:") + 18).strip());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  String read(String relative) {
    try {
      return Files.readString(root.resolve(relative));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
