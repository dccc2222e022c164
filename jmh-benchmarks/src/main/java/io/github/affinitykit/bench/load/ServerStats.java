package io.github.affinitykit.bench.load;

import io.github.affinitykit.audit.CpuTimes;
import io.github.affinitykit.audit.TaskReader;
import io.github.affinitykit.audit.TaskSample;
import io.github.affinitykit.audit.ThreadStats;
import io.github.affinitykit.bench.ThreadStatsProfiler;
import java.nio.file.Path;

/**
 * The server JVM's counters at one moment, from {@code /proc/<pid>}: CPU time (all threads ever),
 * context switches and migrations summed over its live threads, and the machine's CPU pressure.
 *
 * <p>Thread safety: immutable.
 *
 * @param nanoTime when taken
 * @param cpuNs process user + system CPU time
 * @param voluntary voluntary context switches of live threads
 * @param involuntary involuntary context switches of live threads
 * @param migrations migrations of live threads (0 where not exposed)
 * @param psiSomeUs {@code /proc/pressure/cpu} some total, µs (0 where absent)
 * @param machineBusyNs CPU time of the whole machine ({@code /proc/stat}: user, nice, system,
 *     steal), to tell what other processes took
 * @param selfCpuNs CPU time of this (the client's) JVM
 * @param kernelThreadsCpuNs CPU time of all kernel threads (ksoftirqd and kworkers carry the test's
 *     own loopback traffic: not "other processes")
 */
record ServerStats(
    long nanoTime,
    long cpuNs,
    long voluntary,
    long involuntary,
    long migrations,
    long psiSomeUs,
    long machineBusyNs,
    long selfCpuNs,
    long kernelThreadsCpuNs) {

  static ServerStats of(long pid) {
    ThreadStats s = ThreadStats.snapshot(Path.of("/"), (int) pid);
    long vol = 0;
    long invol = 0;
    long migr = 0;
    for (TaskSample t : s.threads()) {
      vol += Math.max(0, t.voluntarySwitches());
      invol += Math.max(0, t.involuntarySwitches());
      migr += Math.max(0, t.migrations());
    }
    return new ServerStats(
        s.nanoTime(),
        s.processCpuNs(),
        vol,
        invol,
        migr,
        ThreadStatsProfiler.psiSomeTotalUs(),
        readMachineBusyNs(),
        ThreadStats.snapshot().processCpuNs(),
        readKernelThreadsCpuNs());
  }

  /**
   * Busy CPU time of the machine from {@code /proc/stat} (core's {@link CpuTimes}), ns: user, nice,
   * system, steal; not irq/softirq: loopback traffic of the test itself is processed there, charged
   * to no process. 0 where unreadable.
   */
  static long readMachineBusyNs() {
    return CpuTimes.read()
        .map(t -> t.userNs() + t.niceNs() + t.systemNs() + t.stealNs())
        .orElse(0L);
  }

  /** Sum of utime + stime of every kernel thread ({@code PF_KTHREAD}), ns. */
  static long readKernelThreadsCpuNs() {
    TaskReader tasks = TaskReader.live();
    long ns = 0;
    for (int pid : tasks.processIds()) { // a kernel thread is a process of one task
      ns +=
          tasks
              .readStat(pid, pid)
              .filter(TaskSample::isKernelThread)
              .map(TaskSample::cpuNs)
              .orElse(0L);
    }
    return ns;
  }
}
