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
 */
record ServerStats(
    long nanoTime,
    long cpuNs,
    long voluntary,
    long involuntary,
    long migrations,
    long psiSomeUs,
    long machineBusyNs,
    long selfCpuNs) {

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
        ThreadStats.snapshot().processCpuNs());
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
}
