package io.github.affinitykit.core;

import java.util.Optional;

/**
 * Parses one task directory of procfs into a {@link TaskSample}. A task that exits while being read
 * yields empty: that is normal, not an error.
 *
 * <p>Thread safety: stateless apart from the immutable {@link SysFs}.
 */
final class TaskReader {
  /** USER_HZ: the unit of stat's utime/stime on every Linux ABI but Alpha. */
  static final long NS_PER_TICK = 10_000_000L;

  private final SysFs fs;

  TaskReader(SysFs fs) {
    this.fs = fs;
  }

  /** Reads {@code /proc/<pid>/task/<tid>}. */
  Optional<TaskSample> read(int pid, int tid) {
    String dir = "/proc/" + pid + "/task/" + tid + "/";
    Optional<String> stat = fs.read(dir + "stat");
    if (stat.isEmpty()) {
      return Optional.empty();
    }
    String s = stat.get();
    int open = s.indexOf('(');
    int close = s.lastIndexOf(')'); // comm may itself contain ')' and spaces
    if (open < 0 || close < open || close + 2 >= s.length()) {
      return Optional.empty();
    }
    String[] f = s.substring(close + 2).split(" ");
    // f[0] is field 3 (state); field n is f[n - 3].
    if (f.length < 37) {
      return Optional.empty();
    }
    long[] sched = schedstat(dir);
    Status status = status(dir);
    return Optional.of(
        new TaskSample(
            pid,
            tid,
            s.substring(open + 1, close),
            f[0].charAt(0),
            Long.parseLong(f[9 - 3]),
            Long.parseLong(f[14 - 3]) * NS_PER_TICK,
            Long.parseLong(f[15 - 3]) * NS_PER_TICK,
            sched[0],
            sched[1],
            status.voluntary(),
            status.involuntary(),
            migrations(dir),
            Integer.parseInt(f[39 - 3]),
            status.allowed()));
  }

  private long[] schedstat(String dir) {
    Optional<String> s = fs.read(dir + "schedstat");
    if (s.isPresent()) {
      String[] f = s.get().trim().split("\\s+");
      if (f.length >= 2) {
        return new long[] {Long.parseLong(f[0]), Long.parseLong(f[1])};
      }
    }
    return new long[] {-1, -1};
  }

  private record Status(long voluntary, long involuntary, CpuSet allowed) {}

  private Status status(String dir) {
    long voluntary = -1;
    long involuntary = -1;
    CpuSet allowed = CpuSet.empty();
    for (String line : fs.lines(dir + "status")) {
      String value = line.substring(line.indexOf(':') + 1).trim();
      if (line.startsWith("voluntary_ctxt_switches:")) {
        voluntary = Long.parseLong(value);
      } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
        involuntary = Long.parseLong(value);
      } else if (line.startsWith("Cpus_allowed_list:")) {
        allowed = CpuSet.parse(value);
      }
    }
    return new Status(voluntary, involuntary, allowed);
  }

  private long migrations(String dir) {
    for (String line : fs.lines(dir + "sched")) {
      if (line.startsWith("se.nr_migrations")) {
        return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
      }
    }
    return -1;
  }
}
