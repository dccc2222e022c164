package io.github.affinitykit.audit;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.ProcNumbers;
import io.github.affinitykit.core.internal.SysFs;
import io.github.affinitykit.core.internal.ThreadFiles;
import io.github.affinitykit.hostreport.proc.StatLine;
import io.github.affinitykit.hostreport.proc.TaskStatus;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The one reader of Linux task files: {@code /proc/<pid>/task/<tid>/{stat,status,schedstat,sched}}
 * into a {@link TaskSample}, the calling thread's kernel id from {@code /proc/thread-self}, the
 * process and thread ids listed in {@code /proc}, and a process's CPU time from {@code
 * /proc/<pid>/stat}. {@link ThreadStats}, {@link CpuAudit} and the sibling modules read through it
 * (core reads its own two files: {@code ThreadFiles}).
 *
 * <p>Nothing here throws for what the files hold: a task that exits while being read, a file that
 * is absent (not Linux, {@code hidepid}) or garbled, gives empty; a counter the kernel does not
 * expose, or prints garbled, reads {@code -1} in the sample.
 *
 * <p>Thread safety: immutable; safe to share and to call from any thread.
 */
public final class TaskReader {
  /** USER_HZ: the unit of stat's utime/stime on every Linux ABI but Alpha, in ns per tick. */
  public static final long NS_PER_TICK = StatLine.NS_PER_TICK;

  private final SysFs fs;
  private final ThreadFiles self;

  TaskReader(SysFs fs) {
    this.fs = Objects.requireNonNull(fs, "fs");
    this.self = new ThreadFiles(fs.root());
  }

  /**
   * Returns a reader of this machine's {@code /proc}.
   *
   * @return a reader rooted at {@code /}
   */
  public static TaskReader live() {
    return at(Path.of("/"));
  }

  /**
   * Returns a reader of the procfs under {@code root} ({@code root/proc/...}): a fixture tree in
   * tests, {@code /} in production.
   *
   * @param root the directory holding the {@code proc/} tree; not null
   * @return a reader of that tree; nothing is read yet
   */
  public static TaskReader at(Path root) {
    return new TaskReader(new SysFs(Objects.requireNonNull(root, "root")));
  }

  /**
   * Reads {@code /proc/<pid>/task/<tid>}; empty if the task is gone or its stat is garbled.
   *
   * @param pid the process (thread group) id
   * @param tid the kernel thread id, one of that process's ({@code pid} itself for its main thread)
   * @return the task's sample, {@code -1} for counters its other files do not give, or empty
   */
  public Optional<TaskSample> read(int pid, int tid) {
    String dir = "/proc/" + pid + "/task/" + tid + "/";
    Optional<StatLine> stat = fs.read(dir + "stat").flatMap(StatLine::parse);
    if (stat.isEmpty()) {
      return Optional.empty();
    }
    long[] sched = schedstat(dir);
    TaskStatus status = TaskStatus.parse(fs.lines(dir + "status"));
    return Optional.of(
        sample(pid, tid, stat.get(), sched, status, migrations(dir), status.allowedOrEmpty()));
  }

  /**
   * Reads only {@code /proc/<pid>/task/<tid>/stat}: identity, state, flags, CPU times and last CPU;
   * the counters of the other files read {@code -1} and the mask is empty. One file instead of
   * four, for scans that need no more (every process, looking for kernel threads).
   *
   * @param pid the process (thread group) id
   * @param tid the kernel thread id, one of that process's ({@code pid} itself for its main thread)
   * @return the task's sample from its stat alone, or empty if it is gone or its stat is garbled
   */
  public Optional<TaskSample> readStat(int pid, int tid) {
    long[] none = {-1, -1};
    TaskStatus unknown = TaskStatus.parse(List.of());
    return fs.read("/proc/" + pid + "/task/" + tid + "/stat")
        .flatMap(StatLine::parse)
        .map(s -> sample(pid, tid, s, none, unknown, -1, CpuSet.empty()));
  }

  private static TaskSample sample(
      int pid,
      int tid,
      StatLine s,
      long[] sched,
      TaskStatus status,
      long migrations,
      CpuSet allowed) {
    return new TaskSample(
        pid,
        tid,
        s.name(),
        s.state(),
        s.flags(),
        s.userNs(),
        s.systemNs(),
        sched[0],
        sched[1],
        status.voluntary(),
        status.involuntary(),
        migrations,
        s.lastCpu(),
        allowed);
  }

  /**
   * Reads the calling thread's task, found through {@code /proc/thread-self}.
   *
   * @return this thread's sample, as {@link #read(int, int)} gives it; empty without the link
   */
  public Optional<TaskSample> readCurrentThread() {
    Optional<String> link = self.selfLink();
    if (link.isEmpty()) {
      return Optional.empty();
    }
    String[] parts = link.get().split("/", -1); // "<pid>/task/<tid>"
    int pid = parts.length == 3 ? id(parts[0]) : -1;
    int tid = parts.length == 3 && parts[1].equals("task") ? id(parts[2]) : -1;
    return pid < 0 || tid < 0 ? Optional.empty() : read(pid, tid);
  }

  /**
   * Returns the calling thread's kernel id (TID), the last name of the {@code /proc/thread-self}
   * link ({@code <pid>/task/<tid>}, Linux 3.17+); empty where that link is absent or unreadable.
   *
   * @return the calling thread's TID, 0 or more, or empty
   */
  public OptionalInt currentThreadId() {
    return self.currentThreadId();
  }

  /**
   * Returns the ids of the processes listed in {@code /proc}, ascending; empty if none.
   *
   * @return the pids at the time of the call, ascending; empty if {@code /proc} cannot be listed
   */
  public List<Integer> processIds() {
    return ids("/proc");
  }

  /**
   * Returns the ids of process {@code pid}'s threads, ascending; empty if it is gone.
   *
   * @param pid the process (thread group) id
   * @return the kernel thread ids at the time of the call, ascending; empty if it cannot be listed
   */
  public List<Integer> threadIds(int pid) {
    return ids("/proc/" + pid + "/task");
  }

  /**
   * Returns process {@code pid}'s user + system CPU time in ns from {@code /proc/<pid>/stat}: every
   * thread it ever had, ended ones included; empty if it is gone or the file is garbled.
   *
   * @param pid the process id
   * @return the CPU time in ns, 10 ms resolution, {@link Long#MAX_VALUE} on overflow; or empty
   */
  public OptionalLong processCpuNs(int pid) {
    Optional<StatLine> stat = fs.read("/proc/" + pid + "/stat").flatMap(StatLine::parse);
    return stat.isEmpty() ? OptionalLong.empty() : OptionalLong.of(stat.get().cpuNs());
  }

  private List<Integer> ids(String dir) {
    List<String> names;
    try {
      names = fs.list(dir);
    } catch (UncheckedIOException e) {
      return List.of(); // the process exited, or hidepid: nothing to list
    }
    List<Integer> out = new ArrayList<>();
    for (String name : names) {
      int id = id(name);
      if (id >= 0) {
        out.add(id);
      }
    }
    out.sort(null);
    return out;
  }

  /** A pid or tid: decimal digits that fit an int, else -1. */
  private static int id(String s) {
    return ThreadFiles.id(s);
  }

  private long[] schedstat(String dir) {
    String[] f = fs.read(dir + "schedstat").orElse("").trim().split("\\s+");
    long run = f.length >= 2 ? ProcNumbers.counter(f[0]) : -1;
    long wait = f.length >= 2 ? ProcNumbers.counter(f[1]) : -1;
    return new long[] {run, wait};
  }

  private long migrations(String dir) {
    for (String line : fs.lines(dir + "sched")) {
      if (line.startsWith("se.nr_migrations")) {
        return ProcNumbers.counter(line.substring(line.indexOf(':') + 1).trim());
      }
    }
    return -1;
  }
}
