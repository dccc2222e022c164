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

  /** CPU between two snapshots of a process, 100 = one CPU. */
  static double percentOfOneCpu(ServerStats from, ServerStats to) {
    double seconds = Math.max(1, to.nanoTime() - from.nanoTime()) / 1e9;
    return (to.cpuNs() - from.cpuNs()) / 1e7 / seconds;
  }
}
