package io.github.affinitykit.bench.load;

import java.util.Objects;

/**
 * One load offered to a gateway: how its warm-up ended, what the client measured, the server's
 * counters at the recorded window's edges and, if there was one, around the idle window that
 * followed.
 *
 * <p>Thread safety: immutable.
 *
 * @param load what the client measured
 * @param warmup how the warm-up before the recorded window ended
 * @param from server counters when the recorded window opened
 * @param to server counters when it closed
 * @param idleCpuPercent server CPU% in the idle window (connections open, no traffic); NaN without
 *     one
 */
record Measurement(
    LoadResult load, Warmup warmup, ServerStats from, ServerStats to, double idleCpuPercent) {
  /** Validates. */
  Measurement {
    Objects.requireNonNull(load, "load");
    Objects.requireNonNull(warmup, "warmup");
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
  }

  /** Server CPU over the recorded window, 100 = one CPU. */
  double cpuPercent() {
    return percentOfOneCpu(from, to);
  }

  /**
   * CPU other processes used over the recorded window, 100 = one CPU: the machine's busy time less
   * the server's, this (the client's) JVM's and the kernel threads' (which carry the test's own
   * loopback traffic).
   */
  double othersCpuPercent() {
    long others =
        (to.machineBusyNs() - from.machineBusyNs())
            - (to.cpuNs() - from.cpuNs())
            - (to.selfCpuNs() - from.selfCpuNs())
            - (to.kernelThreadsCpuNs() - from.kernelThreadsCpuNs());
    return Math.max(0, others) / 1e7 / seconds();
  }

  /** CPU this (the client's) JVM used over the recorded window, all its threads, 100 = one CPU. */
  double clientCpuPercent() {
    return (to.selfCpuNs() - from.selfCpuNs()) / 1e7 / seconds();
  }

  /** The server's context switches (both kinds) per echoed message over the recorded window. */
  double switchesPerMessage() {
    long switches = to.voluntary() - from.voluntary() + to.involuntary() - from.involuntary();
    return (double) switches / Math.max(1, load.received());
  }

  private double seconds() {
    return Math.max(1, to.nanoTime() - from.nanoTime()) / 1e9;
  }

  /** CPU between two snapshots of a process, 100 = one CPU. */
  static double percentOfOneCpu(ServerStats from, ServerStats to) {
    double seconds = Math.max(1, to.nanoTime() - from.nanoTime()) / 1e9;
    return (to.cpuNs() - from.cpuNs()) / 1e7 / seconds;
  }
}
