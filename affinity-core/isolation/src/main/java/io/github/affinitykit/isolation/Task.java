package io.github.affinitykit.isolation;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.ProcNumbers;
import io.github.affinitykit.core.internal.SysFs;
import io.github.affinitykit.hostreport.proc.StatLine;
import io.github.affinitykit.hostreport.proc.TaskStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One task (thread) as the isolation sees it: who it is, whether the kernel lets anyone move it,
 * and where it may run. {@code startTicks} (stat field 22) tells a task from a later one that got
 * the same id.
 *
 * <p>Thread safety: immutable.
 *
 * @param pid the process id
 * @param tid the thread id
 * @param name the thread's {@code comm}
 * @param flags the {@code PF_*} flags
 * @param startTicks the start time after boot, in clock ticks; -1 if unreadable
 * @param mask its {@code Cpus_allowed_list}
 */
record Task(int pid, int tid, String name, long flags, long startTicks, CpuSet mask) {
  private static final long PF_KTHREAD = 0x0020_0000L;
  private static final long PF_NO_SETAFFINITY = 0x0400_0000L;

  boolean kernelThread() {
    return (flags & PF_KTHREAD) != 0;
  }

  boolean unmovable() {
    return (flags & PF_NO_SETAFFINITY) != 0;
  }

  /** "name(tid)" for reports. */
  String label() {
    return name + "(" + tid + ")";
  }

  /** Reads one task; empty if it is gone or its files are garbled. */
  static Optional<Task> read(SysFs fs, int pid, int tid) {
    String dir = "/proc/" + pid + "/task/" + tid + "/";
    Optional<String> line = fs.read(dir + "stat");
    Optional<StatLine> stat = line.flatMap(StatLine::parse);
    CpuSet mask = TaskStatus.parse(fs.lines(dir + "status")).allowedOrEmpty();
    if (stat.isEmpty() || mask.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new Task(pid, tid, stat.get().name(), stat.get().flags(), startTicks(line.get()), mask));
  }

  /**
   * Every task under {@code /proc}, in pid then tid order; tasks that exit meanwhile are skipped.
   */
  static List<Task> scan(SysFs fs) {
    List<Task> out = new ArrayList<>();
    for (int pid : ids(fs, "/proc")) {
      for (int tid : ids(fs, "/proc/" + pid + "/task")) {
        read(fs, pid, tid).ifPresent(out::add);
      }
    }
    return out;
  }

  /** Stat field 22 (starttime): fields are counted after the last ')' of the name. */
  static long startTicks(String statLine) {
    int close = statLine.lastIndexOf(')');
    String[] f = close < 0 ? new String[0] : statLine.substring(close + 1).trim().split(" ");
    return f.length > 22 - 3 ? ProcNumbers.counter(f[22 - 3]) : -1;
  }

  private static List<Integer> ids(SysFs fs, String dir) {
    List<Integer> out = new ArrayList<>();
    List<String> names;
    try {
      names = fs.list(dir);
    } catch (java.io.UncheckedIOException e) {
      return out; // the process exited while listed
    }
    for (String name : names) {
      int id = SysFs.index(name, "");
      if (id >= 0) {
        out.add(id);
      }
    }
    out.sort(null);
    return out;
  }
}
