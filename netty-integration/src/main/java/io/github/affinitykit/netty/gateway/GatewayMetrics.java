package io.github.affinitykit.netty.gateway;

import io.netty.channel.ChannelFutureListener;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The gateway's counters: connections, messages and bytes in and out, closes by status code,
 * back-pressure pauses, HTTP responses by status. Cheap to update from any loop.
 *
 * <p>Thread safety: every method may be called from any thread; reads are not a consistent snapshot
 * across counters.
 */
public final class GatewayMetrics {
  private final AtomicLong connectionsOpen = new AtomicLong();
  private final LongAdder connectionsTotal = new LongAdder();
  private final LongAdder messagesIn = new LongAdder();
  private final LongAdder messagesOut = new LongAdder();
  private final LongAdder messagesFailed = new LongAdder();
  private final LongAdder bytesIn = new LongAdder();
  private final LongAdder bytesOut = new LongAdder();
  private final LongAdder readsPaused = new LongAdder();
  private final LongAdder dropped = new LongAdder();
  private final LongAdder pongs = new LongAdder();
  private final LongAdder pingsCoalesced = new LongAdder();
  private volatile LongSupplier pendingNow = () -> 0;

  /** Creates counters at zero. */
  public GatewayMetrics() {
    // counters start at zero
  }

  private final Map<Integer, LongAdder> closes = new ConcurrentHashMap<>();
  private final Map<Integer, LongAdder> http = new ConcurrentHashMap<>();
  private final AtomicLong maxPendingBytes = new AtomicLong();
  private final ChannelFutureListener sent =
      f -> {
        if (f.isSuccess()) {
          messagesOut.increment();
        } else {
          messagesFailed.increment();
        }
      };

  void opened() {
    connectionsOpen.incrementAndGet();
    connectionsTotal.increment();
  }

  void closed() {
    connectionsOpen.decrementAndGet();
  }

  void received(int bytes) {
    messagesIn.increment();
    bytesIn.add(bytes);
  }

  /** Counts {@code bytes} queued for a client; the listener counts the message once written. */
  ChannelFutureListener queued(int bytes) {
    bytesOut.add(bytes);
    return sent;
  }

  void dropped() {
    dropped.increment();
  }

  void dropped(int frames) {
    dropped.add(frames);
  }

  void pongSent() {
    pongs.increment();
  }

  void pingCoalesced() {
    pingsCoalesced.increment();
  }

  /** Where {@link #pendingBytes()} comes from: set once the channels exist. */
  void pendingFrom(LongSupplier now) {
    pendingNow = now;
  }

  void paused() {
    readsPaused.increment();
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

  /** Returns the WebSocket connections open now. */
  public long connectionsOpen() {
    return connectionsOpen.get();
  }

  /** Returns the WebSocket connections accepted since start. */
  public long connectionsTotal() {
    return connectionsTotal.sum();
  }

  /** Returns the WebSocket messages (text and binary) accepted. */
  public long messagesIn() {
    return messagesIn.sum();
  }

  /** Returns the WebSocket messages written to clients (echoes and broadcasts). */
  public long messagesOut() {
    return messagesOut.sum();
  }

  /** Returns the messages whose write failed (the client went away first). */
  public long messagesFailed() {
    return messagesFailed.sum();
  }

  /** Returns the payload bytes accepted. */
  public long bytesIn() {
    return bytesIn.sum();
  }

  /** Returns the payload bytes queued for writing. */
  public long bytesOut() {
    return bytesOut.sum();
  }

  /** Returns how many times a client was no longer read because it did not read its replies. */
  public long readsPaused() {
    return readsPaused.sum();
  }

  /**
   * Returns the data frames not accepted: they came after the close handshake began, or were read
   * while the client was over its outbound limit and the connection closed before it drained.
   */
  public long droppedAfterClose() {
    return dropped.sum();
  }

  /**
   * Returns the most bytes ever seen pending to one client when it went over its outbound limit
   * (the high water mark plus at most one message and one pong).
   */
  public long maxPendingBytes() {
    return maxPendingBytes.get();
  }

  /** Returns the bytes waiting in every connection's outbound buffer now. */
  public long pendingBytes() {
    return pendingNow.getAsLong();
  }

  /** Returns the pongs sent. */
  public long pongsSent() {
    return pongs.sum();
  }

  /**
   * Returns the pings left unanswered because a later ping came while the client was over its
   * outbound limit (only the most recent is answered, RFC 6455 §5.5.3).
   */
  public long pingsCoalesced() {
    return pingsCoalesced.sum();
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

  private static Map<Integer, Long> sums(Map<Integer, LongAdder> m) {
    Map<Integer, Long> out = new TreeMap<>();
    m.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }
}
