package io.github.affinitykit.disruptor.demo;

import io.github.affinitykit.audit.CpuTimes;

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
  /** Reads {@code /proc/stat} now (through core's {@link CpuTimes}). */
  static HostLoad read() {
    long now = System.nanoTime();
    return new HostLoad(now, CpuTimes.read().map(CpuTimes::busyNs).orElse(-1L));
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
