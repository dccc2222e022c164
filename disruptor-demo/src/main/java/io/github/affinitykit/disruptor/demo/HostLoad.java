package io.github.affinitykit.disruptor.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The whole machine's busy CPU time from {@code /proc/stat} (all CPUs, every process and the
 * kernel), so that a row can say how much CPU other processes took while it ran: the noise beside
 * the numbers.
 *
 * <p>Thread safety: immutable.
 *
 * @param nanoTime {@link System#nanoTime()} at the read
 * @param busyNs busy time of all CPUs (user, nice, system, irq, softirq, steal), -1 if unknown
 */
record HostLoad(long nanoTime, long busyNs) {
  private static final long NS_PER_TICK = 10_000_000L; // USER_HZ = 100 on Linux

  /** Reads {@code /proc/stat} now. */
  static HostLoad read() {
    long now = System.nanoTime();
    try {
      String cpu = Files.readAllLines(Path.of("/proc/stat")).get(0);
      String[] f = cpu.trim().split("\\s+");
      long busy = 0;
      for (int i : new int[] {1, 2, 3, 6, 7, 8}) {
        busy += Long.parseLong(f[i]);
      }
      return new HostLoad(now, busy * NS_PER_TICK);
    } catch (IOException | RuntimeException e) {
      return new HostLoad(now, -1);
    }
  }

  /**
   * Returns the CPUs used by everything but this process between {@code earlier} and this read,
   * given this process's CPU time over the same span; -1 if unknown.
   */
  double othersSince(HostLoad earlier, long processCpuNs) {
    long wall = nanoTime - earlier.nanoTime;
    if (busyNs < 0 || earlier.busyNs < 0 || wall <= 0) {
      return -1;
    }
    return Math.max(0, (double) (busyNs - earlier.busyNs - processCpuNs) / wall);
  }
}
