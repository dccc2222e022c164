package io.github.affinitykit.bench.load;

import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The state every connection of one run shares: the time windows, and what happened to the messages
 * (sent, echoed, out of order, failed) counted as it happens and summed into a {@link LoadResult}
 * at the end. The recorded window opens when the warm-up ends ({@link #record}), which the caller
 * decides: until then every message is warm-up and the connections send on.
 *
 * <p>Thread safety: {@link #start} and {@link #record} are called once each, by the controlling
 * thread, before and after the connections start; every event method may be called from any
 * connection's event loop at once; {@link #result()} is called once the connections have stopped
 * sending.
 */
final class LoadRun {
  private final LoadConfig config;
  private volatile long startNs = Long.MAX_VALUE;
  private volatile long recordFromNs = Long.MAX_VALUE;
  private volatile long stopNs = Long.MAX_VALUE;
  private final Recorder latency = new Recorder(3);
  private final Histogram total = new Histogram(3); // the intervals taken so far, added up
  private final LongAdder sentInWindow = new LongAdder();
  private final LongAdder receivedInWindow = new LongAdder();
  private final LongAdder sentTotal = new LongAdder();
  private final LongAdder echoedTotal = new LongAdder();
  private final LongAdder outOfOrder = new LongAdder();
  private final LongAdder errors = new LongAdder();
  private final LongAdder senders = new LongAdder();
  private final LongAdder sendersDone = new LongAdder();

  LoadRun(LoadConfig config) {
    this.config = config;
  }

  /**
   * Sets when the connections start sending, {@link System#nanoTime()}: once every connection is
   * ready, so that no connection's schedule starts before it could send.
   */
  void start(long startNs) {
    this.startNs = startNs;
  }

  /**
   * Opens the recorded window at {@code fromNs}: messages intended from then on, for the config's
   * duration, are recorded; the connections stop sending when it closes.
   */
  void record(long fromNs) {
    stopNs = fromNs + config.duration().toNanos();
    recordFromNs = fromNs;
  }

  LoadConfig config() {
    return config;
  }

  /** When the connections start sending, {@link System#nanoTime()} (MAX_VALUE until known). */
  long startNs() {
    return startNs;
  }

  /** When the recorded window opens: after the warm-up ({@link Long#MAX_VALUE} until then). */
  long recordFromNs() {
    return recordFromNs;
  }

  /** When the recorded window closes and the connections stop sending (MAX_VALUE until known). */
  long stopNs() {
    return stopNs;
  }

  /** A message meant to leave at {@code intendedNs} was written. */
  void sent(long intendedNs) {
    sentTotal.increment();
    if (inWindow(intendedNs)) {
      sentInWindow.increment();
    }
  }

  /**
   * The echo of the message meant to leave at {@code intendedNs} arrived at {@code nowNs}; {@code
   * inOrder} false if its sequence number was not the next one expected on its connection.
   */
  void echoed(long intendedNs, long nowNs, boolean inOrder) {
    if (!inOrder) {
      outOfOrder.increment();
    }
    echoedTotal.increment();
    if (inWindow(intendedNs)) {
      receivedInWindow.increment();
      latency.recordValue(Math.max(0, nowNs - intendedNs));
    }
  }

  /** {@code count} connection or protocol errors happened (a failed write, handshake, ...). */
  void failed(long count) {
    errors.add(count);
  }

  /** Returns the echoes received so far, warm-up included. */
  long echoed() {
    return echoedTotal.sum();
  }

  /** A connection starts sending (once each, before it sends). */
  void senderStarted() {
    senders.increment();
  }

  /** A connection has sent everything it will send (once each). */
  void senderDone() {
    sendersDone.increment();
  }

  /**
   * Returns whether every connection has sent everything it will (a loop that fell behind sends its
   * backlog after the window closes) and every message sent has been echoed.
   */
  boolean drained() {
    return sendersDone.sum() >= senders.sum() && echoedTotal.sum() >= sentTotal.sum();
  }

  /**
   * Returns the latencies recorded since the previous call (the first: since the window opened);
   * the run's result still holds them all.
   */
  synchronized Histogram intervalLatency() {
    Histogram h = latency.getIntervalHistogram();
    total.add(h);
    return h;
  }

  /** Returns what the run measured; a message sent and not echoed by now counts as lost. */
  LoadResult result() {
    intervalLatency();
    return new LoadResult(
        sentInWindow.sum(),
        receivedInWindow.sum(),
        sentTotal.sum() - echoedTotal.sum(),
        outOfOrder.sum(),
        errors.sum(),
        stopNs - recordFromNs,
        totalLatency());
  }

  private synchronized Histogram totalLatency() {
    return total.copy();
  }

  private boolean inWindow(long intendedNs) {
    long from = recordFromNs;
    return intendedNs >= from && intendedNs < from + config.duration().toNanos();
  }
}
