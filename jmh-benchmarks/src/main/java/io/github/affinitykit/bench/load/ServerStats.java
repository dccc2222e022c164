package io.github.affinitykit.bench.load;

import io.github.affinitykit.bench.ThreadStatsProfiler;
import io.github.affinitykit.core.TaskSample;
import io.github.affinitykit.core.ThreadStats;
import java.io.IOException;
import java.nio.file.Files;
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

  /** Busy CPU time of the machine from the {@code cpu} line of {@code /proc/stat}, ns. */
  static long readMachineBusyNs() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/stat"))) {
        if (line.startsWith("cpu ")) {
          String[] f = line.trim().split("\\s+");
          long ticks = 0;
          // user, nice, system, steal; not irq/softirq: loopback traffic of the test itself
          // is processed there, charged to no process
          for (int i : new int[] {1, 2, 3, 8}) {
            ticks += Long.parseLong(f[i]);
          }
          return ticks * 10_000_000L;
        }
      }
    } catch (IOException | RuntimeException e) {
      return 0;
    }
    return 0;
  }

  /** Sum of utime + stime of every kernel thread ({@code PF_KTHREAD}), ns. */
  static long readKernelThreadsCpuNs() {
    long ticks = 0;
    try (java.nio.file.DirectoryStream<Path> procs =
        Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
      for (Path p : procs) {
        try {
          String st = Files.readString(p.resolve("stat"));
          String[] f = st.substring(st.lastIndexOf(')') + 2).split(" ");
          if ((Long.parseLong(f[9 - 3]) & TaskSample.PF_KTHREAD) != 0) {
            ticks += Long.parseLong(f[14 - 3]) + Long.parseLong(f[15 - 3]);
          }
        } catch (IOException | RuntimeException gone) {
          // the process ended while we read it
        }
      }
    } catch (IOException e) {
      return 0;
    }
    return ticks * 10_000_000L;
  }
}
