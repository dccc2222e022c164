package io.github.affinitykit.bench.load;

import java.util.Objects;
import org.HdrHistogram.Histogram;

/**
 * What a {@link LoadClient} run measured. Latency is from each message's <em>intended</em> send
 * time in fixed-rate mode (coordinated omission corrected), from its actual send time in
 * maximum-throughput mode.
 *
 * <p>Thread safety: immutable apart from the histogram, which callers must not modify.
 *
 * @param sent messages sent in the recorded window
 * @param received echoes received in the recorded window
 * @param lost messages sent (at any time) and never echoed before the drain timeout
 * @param outOfOrder echoes that arrived out of sequence on their connection
 * @param errors connection or protocol errors
 * @param recordedNs length of the recorded window
 * @param latencyNs latency histogram, ns
 */
public record LoadResult(
    long sent,
    long received,
    long lost,
    long outOfOrder,
    long errors,
    long recordedNs,
    Histogram latencyNs) {

  /** Validates. */
  public LoadResult {
    Objects.requireNonNull(latencyNs, "latencyNs");
  }

  /** Returns echoes received per second in the recorded window. */
  public double messagesPerSecond() {
    return recordedNs == 0 ? 0 : received * 1e9 / recordedNs;
  }

  /** Returns the latency at {@code percentile} (0-100) in µs. */
  public double latencyUs(double percentile) {
    return latencyNs.getValueAtPercentile(percentile) / 1e3;
  }
}
