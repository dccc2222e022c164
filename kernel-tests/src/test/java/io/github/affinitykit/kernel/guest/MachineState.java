package io.github.affinitykit.kernel.guest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * What an isolation may change on a machine, read from the guest's kernel: every task's {@code
 * Cpus_allowed_list}, every IRQ's {@code smp_affinity}, {@code default_smp_affinity}, the workqueue
 * cpumask, and every cgroup directory with its cpuset and control files. Two snapshots taken before
 * an isolation and after its release must agree field by field.
 *
 * <p>Thread safety: stateless.
 */
final class MachineState {
  private static final List<String> CGROUP_FILES =
      List.of(
          "cgroup.subtree_control",
          "cgroup.type",
          "cpuset.cpus",
          "cpuset.cpus.exclusive",
          "cpuset.cpus.partition",
          "cpuset.cpus.effective",
          "cpuset.mems",
          "cpuset.effective_cpus",
          "cpuset.cpu_exclusive",
          "cpuset.sched_load_balance");

  private MachineState() {}

  /** Everything, as JSON objects: tasks, irqs, files (path to exact text). */
  static ObjectNode read() throws IOException {
    ObjectNode out = GuestMain.JSON.createObjectNode();
    ObjectNode tasks = out.putObject("tasks");
    ObjectNode pinnedByKernel = out.putObject("kernelManaged");
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      for (Path p : (Iterable<Path>) procs::iterator) {
        if (p.getFileName().toString().matches("[0-9]+")) {
          tasks(p, tasks, pinnedByKernel);
        }
      }
    }
    ObjectNode irqs = out.putObject("irqs");
    try (Stream<Path> dirs = Files.list(Path.of("/proc/irq"))) {
      for (Path p : (Iterable<Path>) dirs::iterator) {
        text(p.resolve("smp_affinity")).ifPresent(t -> irqs.put(p.getFileName().toString(), t));
      }
    }
    ObjectNode files = out.putObject("files");
    for (String f :
        List.of("/proc/irq/default_smp_affinity", "/sys/devices/virtual/workqueue/cpumask")) {
      text(Path.of(f)).ifPresent(t -> files.put(f, t));
    }
    for (String root : List.of("/sys/fs/cgroup", "/sys/fs/cgroup/cpuset")) {
      cgroups(Path.of(root), files);
    }
    return out;
  }

  /**
   * Each task's mask; tasks the kernel forbids anyone to move (PF_NO_SETAFFINITY: per-CPU threads,
   * workqueue workers and rescuers, whose masks the kernel itself changes as they work) listed
   * apart.
   */
  private static void tasks(Path proc, ObjectNode into, ObjectNode kernelManaged) {
    try (Stream<Path> ts = Files.list(proc.resolve("task"))) {
      for (Path t : (Iterable<Path>) ts::iterator) {
        String tid = t.getFileName().toString();
        into.put(tid, ThreadFacts.allowed(t.resolve("status")));
        String stat = text(t.resolve("stat")).orElse("");
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        if (f.length > 6 && (Long.parseLong(f[6]) & 0x0400_0000L) != 0) {
          kernelManaged.put(tid, true);
        }
      }
    } catch (IOException e) {
      // the process ended while listed
    }
  }

  private static void cgroups(Path root, ObjectNode into) throws IOException {
    if (!Files.exists(root.resolve("cgroup.procs"))) {
      return;
    }
    try (Stream<Path> dirs = Files.walk(root)) {
      for (Path d : (Iterable<Path>) dirs.filter(Files::isDirectory)::iterator) {
        into.put(d + "/", "");
        for (String f : CGROUP_FILES) {
          text(d.resolve(f)).ifPresent(t -> into.put(d.resolve(f).toString(), t));
        }
      }
    }
  }

  static java.util.Optional<String> text(Path p) {
    try {
      return java.util.Optional.of(Files.readString(p, StandardCharsets.UTF_8));
    } catch (IOException e) {
      return java.util.Optional.empty();
    }
  }
}
