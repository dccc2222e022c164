package io.github.affinitykit.netty.gateway;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.ToDoubleFunction;

/**
 * The gateway's own part of {@code /metrics}: {@link GatewayMetrics}' counters and gauges, bound to
 * Micrometer meters that read them when scraped (the names are the exposed Prometheus names;
 * counters end in {@code _total}).
 *
 * <p>Thread safety: stateless; {@link GatewayMetrics} may be read from any thread.
 */
final class GatewayMeters {
  private static final String P = "affinitykit_gateway_";

  private GatewayMeters() {}

  /** Binds the fixed series of {@code metrics} to {@code registry}. */
  static void register(MeterRegistry registry, GatewayMetrics metrics) {
    gauge(
        registry,
        metrics,
        "connections",
        "WebSocket connections open now.",
        GatewayMetrics::connectionsOpen);
    counter(
        registry,
        metrics,
        "connections_accepted_total",
        "WebSocket connections accepted.",
        GatewayMetrics::connectionsTotal);
    counter(
        registry,
        metrics,
        "messages_received_total",
        "WebSocket messages accepted.",
        GatewayMetrics::messagesIn);
    counter(
        registry,
        metrics,
        "messages_sent_total",
        "WebSocket messages written to clients.",
        GatewayMetrics::messagesOut);
    counter(
        registry,
        metrics,
        "messages_send_failed_total",
        "Writes that failed: client gone.",
        GatewayMetrics::messagesFailed);
    counter(
        registry,
        metrics,
        "bytes_received_total",
        "WebSocket payload bytes accepted.",
        GatewayMetrics::bytesIn);
    counter(
        registry,
        metrics,
        "bytes_sent_total",
        "WebSocket payload bytes queued for writing.",
        GatewayMetrics::bytesOut);
    counter(
        registry,
        metrics,
        "reads_paused_total",
        "Times a client was not read: replies pending.",
        GatewayMetrics::readsPaused);
    counter(
        registry,
        metrics,
        "messages_dropped_after_close_total",
        "Data frames ignored after the close handshake began.",
        GatewayMetrics::droppedAfterClose);
    flow(registry, metrics);
  }

  /** The outbound limit: pending bytes, pongs and coalesced pings. */
  private static void flow(MeterRegistry registry, GatewayMetrics metrics) {
    gauge(
        registry,
        metrics,
        "pending_bytes_max",
        "Most bytes seen pending to one client when it went over its outbound limit.",
        GatewayMetrics::maxPendingBytes);
    gauge(
        registry,
        metrics,
        "pending_bytes",
        "Bytes waiting to be written to clients now.",
        GatewayMetrics::pendingBytes);
    counter(registry, metrics, "pongs_sent_total", "Pongs sent.", GatewayMetrics::pongsSent);
    counter(
        registry,
        metrics,
        "pings_coalesced_total",
        "Pings not answered: a later one came while the client was over its limit.",
        GatewayMetrics::pingsCoalesced);
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

  private static void counter(
      MeterRegistry registry,
      GatewayMetrics metrics,
      String name,
      String help,
      ToDoubleFunction<GatewayMetrics> value) {
    FunctionCounter.builder(P + name, metrics, value).description(help).register(registry);
  }

  private static void gauge(
      MeterRegistry registry,
      GatewayMetrics metrics,
      String name,
      String help,
      ToDoubleFunction<GatewayMetrics> value) {
    Gauge.builder(P + name, metrics, value)
        .description(help)
        .strongReference(true)
        .register(registry);
  }
}
