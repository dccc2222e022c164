package io.github.affinitykit.netty.gateway;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * The gateway's own part of {@code /metrics}: {@link GatewayMetrics}' counters and gauges, bound to
 * Micrometer meters that read them when scraped (the names are the exposed Prometheus names;
 * counters end in {@code _total}).
 *
 * <p>Thread safety: stateless; {@link GatewayMetrics} may be read from any thread.
 */
final class GatewayMeters {
  private static final String P = GatewayCount.PREFIX;

  private GatewayMeters() {}

  /**
   * Binds the fixed series of {@code metrics} to {@code registry}, in {@link GatewayCount} order.
   */
  static void register(MeterRegistry registry, GatewayMetrics metrics) {
    for (GatewayCount series : GatewayCount.values()) {
      series.bind(registry, metrics);
    }
  }

  /** Sets the series by close code and HTTP status: they appear as codes are first seen. */
  static void sample(SampledMeters meters, GatewayMetrics metrics) {
    metrics
        .closesSent()
        .forEach(
            (code, n) ->
                meters.counter(
                    P + "closes_sent_total",
                    "Close frames sent, by status code.",
                    n,
                    "code",
                    String.valueOf(code)));
    metrics
        .httpResponses()
        .forEach(
            (status, n) ->
                meters.counter(
                    P + "http_responses_total",
                    "Plain HTTP responses, by status.",
                    n,
                    "status",
                    String.valueOf(status)));
  }
}
