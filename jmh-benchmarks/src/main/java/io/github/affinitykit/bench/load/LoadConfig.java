package io.github.affinitykit.bench.load;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * What a {@link LoadClient} run does.
 *
 * <p>Thread safety: immutable.
 *
 * @param uri the gateway's WebSocket endpoint ({@code ws://127.0.0.1:8080/ws})
 * @param connections WebSocket connections
 * @param payloadBytes bytes per binary message (at least 16: sequence + intended send time)
 * @param warmup the longest warm-up, sent but not recorded (the caller may end it sooner)
 * @param duration recorded
 * @param ratePerSecond total messages per second for the fixed-rate (open-loop) mode; 0 = maximum
 *     throughput (closed loop, {@code window} messages in flight per connection)
 * @param window messages in flight per connection in maximum-throughput mode
 * @param ioThreads client event-loop threads
 */
public record LoadConfig(
    URI uri,
    int connections,
    int payloadBytes,
    Duration warmup,
    Duration duration,
    long ratePerSecond,
    int window,
    int ioThreads) {

  /** Validates: every bad value is named with the rule. */
  public LoadConfig {
    Objects.requireNonNull(uri, "uri");
    require(connections > 0, "connections", connections, "> 0");
    require(
        payloadBytes >= 16 && payloadBytes <= 1 << 20,
        "payloadBytes",
        payloadBytes,
        ">= 16 and <= 1048576");
    require(!warmup.isNegative(), "warmup", warmup, ">= 0");
    require(!duration.isNegative() && !duration.isZero(), "duration", duration, "> 0");
    require(ratePerSecond >= 0, "ratePerSecond", ratePerSecond, ">= 0 (0 = maximum throughput)");
    require(window > 0, "window", window, "> 0");
    require(ioThreads > 0, "ioThreads", ioThreads, "> 0");
  }

  /**
   * Throws {@code name: value (expected: rule)} unless {@code ok}; the soak's options use it too.
   */
  static void require(boolean ok, String name, Object value, String rule) {
    if (!ok) {
      throw new IllegalArgumentException(name + ": " + value + " (expected: " + rule + ")");
    }
  }

  /** Returns whether this is the fixed-rate, open-loop mode. */
  public boolean fixedRate() {
    return ratePerSecond > 0;
  }
}
