package io.github.affinitykit.netty.gateway;

import io.netty.channel.ChannelFutureListener;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The gateway's counters: connections (and those refused), messages and bytes in and out, closes by
 * status code, back-pressure pauses, HTTP responses by status. Cheap to update from any loop; read
 * one of the fixed series with {@link #get(GatewayCount)}.
 *
 * <p>Thread safety: every method may be called from any thread; reads are not a consistent snapshot
 * across counters.
 */
public final class GatewayMetrics {
  private final LongAdder[] counts = new LongAdder[GatewayCount.values().length];
  private final Map<Integer, LongAdder> closes = new ConcurrentHashMap<>();
  private final Map<Integer, LongAdder> http = new ConcurrentHashMap<>();
  private final AtomicLong maxPendingBytes = new AtomicLong();
  private volatile LongSupplier pendingNow = () -> 0;
  private final ChannelFutureListener sent =
      f -> add(f.isSuccess() ? GatewayCount.MESSAGES_SENT : GatewayCount.MESSAGES_SEND_FAILED, 1);

  /** Creates counters at zero. */
  public GatewayMetrics() {
    for (int i = 0; i < counts.length; i++) {
      counts[i] = new LongAdder();
    }
  }

  void opened() {
    add(GatewayCount.CONNECTIONS_OPEN, 1);
    add(GatewayCount.CONNECTIONS_ACCEPTED, 1);
  }

  void refused() {
    add(GatewayCount.CONNECTIONS_REFUSED, 1);
  }

  void closed() {
    add(GatewayCount.CONNECTIONS_OPEN, -1);
  }

  void received(int bytes) {
    add(GatewayCount.MESSAGES_RECEIVED, 1);
    add(GatewayCount.BYTES_RECEIVED, bytes);
  }

  /** Counts {@code bytes} queued for a client; the listener counts the message once written. */
  ChannelFutureListener queued(int bytes) {
    add(GatewayCount.BYTES_SENT, bytes);
    return sent;
  }

  void dropped() {
    dropped(1);
  }

  void dropped(int frames) {
    add(GatewayCount.MESSAGES_DROPPED_AFTER_CLOSE, frames);
  }

  void pongSent() {
    add(GatewayCount.PONGS_SENT, 1);
  }

  void pingCoalesced() {
    add(GatewayCount.PINGS_COALESCED, 1);
  }

  /** Where {@link GatewayCount#PENDING_BYTES} comes from: set once the channels exist. */
  void pendingFrom(LongSupplier now) {
    pendingNow = now;
  }

  void paused() {
    add(GatewayCount.READS_PAUSED, 1);
  }

  void pending(long bytes) {
    maxPendingBytes.accumulateAndGet(bytes, Math::max);
  }

  void closeSent(int code) {
    closes.computeIfAbsent(code, c -> new LongAdder()).increment();
  }

  void httpResponse(int status) {
    http.computeIfAbsent(status, c -> new LongAdder()).increment();
  }

  /** Returns the value of {@code series} now (each series' meaning: its constant's Javadoc). */
  public long get(GatewayCount series) {
    return switch (series) {
      case PENDING_BYTES_MAX -> maxPendingBytes.get();
      case PENDING_BYTES -> pendingNow.getAsLong();
      default -> counts[series.ordinal()].sum();
    };
  }

  /**
   * Returns the close frames written to clients, by status code (1005: a frame without one); a
   * close frame whose write failed is not counted.
   */
  public Map<Integer, Long> closesSent() {
    return sums(closes);
  }

  /** Returns the plain HTTP responses (not upgrades), by status. */
  public Map<Integer, Long> httpResponses() {
    return sums(http);
  }

  private void add(GatewayCount series, long n) {
    counts[series.ordinal()].add(n);
  }

  private static Map<Integer, Long> sums(Map<Integer, LongAdder> m) {
    Map<Integer, Long> out = new TreeMap<>();
    m.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }
}
