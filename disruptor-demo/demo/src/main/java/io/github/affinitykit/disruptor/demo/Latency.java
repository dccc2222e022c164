package io.github.affinitykit.disruptor.demo;

import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * End-to-end latency percentiles of one paced window, in µs, from each event's intended send time.
 *
 * <p>Thread safety: immutable.
 *
 * @param p50Us median
 * @param p99Us 99th percentile
 * @param p999Us 99.9th percentile
 */
record Latency(double p50Us, double p99Us, double p999Us) {

  /** Returns the percentiles of {@code ns}, a histogram of latencies in nanoseconds. */
  static Latency of(Histogram ns) {
    return new Latency(
        ns.getValueAtPercentile(50) / 1e3,
        ns.getValueAtPercentile(99) / 1e3,
        ns.getValueAtPercentile(99.9) / 1e3);
  }

  /**
   * Returns {@code micros} as the tables show it: one decimal below 100, whole and grouped above.
   */
  static String us(double micros) {
    return micros >= 100
        ? String.format(Locale.ROOT, "%,.0f", micros)
        : String.format(Locale.ROOT, "%.1f", micros);
  }
}
