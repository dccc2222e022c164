package io.github.affinitykit.netty.gateway;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.ToDoubleFunction;

/**
 * The gateway's fixed series: each one a value {@link GatewayMetrics#get} returns and a meter on
 * {@code /metrics} with its name and help (a counter's name ends in {@code _total}; the others are
 * gauges). The series by close code and HTTP status are {@link GatewayMetrics#closesSent()} and
 * {@link GatewayMetrics#httpResponses()}.
 *
 * <p>Thread safety: immutable.
 */
public enum GatewayCount {
  /** WebSocket connections open now. */
  CONNECTIONS_OPEN("connections", "WebSocket connections open now."),
  /** WebSocket connections accepted since start. */
  CONNECTIONS_ACCEPTED("connections_accepted_total", "WebSocket connections accepted."),
  /**
   * TCP connections closed as soon as accepted because {@code --max-connections} were open (HTTP
   * and WebSocket, on the main and the metrics port).
   */
  CONNECTIONS_REFUSED(
      "connections_refused_total", "Connections closed at accept: --max-connections were open."),
  /** WebSocket messages (text and binary) accepted. */
  MESSAGES_RECEIVED("messages_received_total", "WebSocket messages accepted."),
  /** WebSocket messages written to clients (echoes and broadcasts). */
  MESSAGES_SENT("messages_sent_total", "WebSocket messages written to clients."),
  /** Messages whose write failed (the client went away first). */
  MESSAGES_SEND_FAILED("messages_send_failed_total", "Writes that failed: client gone."),
  /** Payload bytes accepted. */
  BYTES_RECEIVED("bytes_received_total", "WebSocket payload bytes accepted."),
  /** Payload bytes queued for writing. */
  BYTES_SENT("bytes_sent_total", "WebSocket payload bytes queued for writing."),
  /** Times a client was no longer read because it did not read its replies. */
  READS_PAUSED("reads_paused_total", "Times a client was not read: replies pending."),
  /**
   * Data frames not accepted: they came after the close handshake began, or were read while the
   * client was over its outbound limit and the connection closed before it drained.
   */
  MESSAGES_DROPPED_AFTER_CLOSE(
      "messages_dropped_after_close_total", "Data frames ignored after the close handshake began."),
  /**
   * The most bytes ever seen pending to one client when it went over its outbound limit (the high
   * water mark plus at most one message and one pong).
   */
  PENDING_BYTES_MAX(
      "pending_bytes_max",
      "Most bytes seen pending to one client when it went over its outbound limit."),
  /** Bytes waiting in every connection's outbound buffer now. */
  PENDING_BYTES("pending_bytes", "Bytes waiting to be written to clients now."),
  /** Pongs sent. */
  PONGS_SENT("pongs_sent_total", "Pongs sent."),
  /**
   * Pings left unanswered because a later ping came while the client was over its outbound limit
   * (only the most recent is answered, RFC 6455 §5.5.3).
   */
  PINGS_COALESCED(
      "pings_coalesced_total",
      "Pings not answered: a later one came while the client was over its limit.");

  /** What every exposed name starts with. */
  static final String PREFIX = "affinitykit_gateway_";

  private final String metricName;
  private final String help;

  GatewayCount(String suffix, String help) {
    this.metricName = PREFIX + suffix;
    this.help = help;
  }

  /**
   * Binds this series of {@code metrics} to {@code registry}, read when scraped: a counter if its
   * name ends in {@code _total}, else a gauge.
   */
  void bind(MeterRegistry registry, GatewayMetrics metrics) {
    ToDoubleFunction<GatewayMetrics> value = m -> m.get(this);
    if (metricName.endsWith("_total")) {
      FunctionCounter.builder(metricName, metrics, value).description(help).register(registry);
    } else {
      Gauge.builder(metricName, metrics, value)
          .description(help)
          .strongReference(true)
          .register(registry);
    }
  }
}
