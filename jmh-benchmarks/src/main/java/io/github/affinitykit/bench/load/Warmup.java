package io.github.affinitykit.bench.load;

import java.util.List;
import java.util.Locale;

/**
 * How a load's warm-up ended: how long it took, whether the server reached the {@link SteadyState}
 * criterion within its bound, and what the last windows measured. A fixed warm-up (a capacity
 * probe's settling time on a JVM already warm) is recorded as {@link #fixed}.
 *
 * <p>Thread safety: immutable.
 *
 * @param tookNs time from the first message to the recorded window
 * @param steady whether the criterion was met (always true for a fixed warm-up)
 * @param windows the 1 s windows observed
 * @param cpuPercent server CPU over the last windows, 100 = one CPU (NaN for a fixed warm-up)
 * @param messagesPerSecond echoes per second over the last windows (NaN for a fixed warm-up)
 * @param lastUsPerMessage the last windows' CPU-µs per message, oldest first
 */
record Warmup(
    long tookNs,
    boolean steady,
    int windows,
    double cpuPercent,
    double messagesPerSecond,
    List<Double> lastUsPerMessage) {

  /** Validates. */
  Warmup {
    lastUsPerMessage = List.copyOf(lastUsPerMessage);
  }

  /** A fixed warm-up of {@code tookNs}, on a JVM already warm. */
  static Warmup fixed(long tookNs) {
    return new Warmup(tookNs, true, 0, Double.NaN, Double.NaN, List.of());
  }

  /** What the criterion saw when it ended. */
  static Warmup of(long tookNs, SteadyState s) {
    return new Warmup(
        tookNs, s.steady(), s.windows(), s.cpuPercent(), s.messagesPerSecond(), s.recent());
  }

  /** {@code "steady after 6.0 s"} or {@code "not steady after 15.0 s (10.2, 9.1, 9.9 µs/msg)"}. */
  String describe() {
    String took = String.format(Locale.ROOT, "%.1f s", tookNs / 1e9);
    if (steady) {
      return "steady after " + took;
    }
    StringBuilder sb = new StringBuilder("not steady after ").append(took);
    if (!lastUsPerMessage.isEmpty()) {
      sb.append(" (last windows ");
      lastUsPerMessage.forEach(v -> sb.append(String.format(Locale.ROOT, "%.2f, ", v)));
      sb.setLength(sb.length() - 2);
      sb.append(" CPU-µs/msg)");
    }
    return sb.toString();
  }

  @Override
  public String toString() {
    return describe();
  }
}
