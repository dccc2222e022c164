package io.github.affinitykit.disruptor.demo;

import org.HdrHistogram.Histogram;

/**
 * One consumer's bookkeeping in {@code compare-queues}: checks that events arrive in publishing
 * order, each once, counts them, and records end-to-end latency from each event's intended send
 * time while recording is on.
 *
 * <p>Thread safety: {@link #on} runs on the consumer's thread; {@link #processed()} and {@link
 * #errors()} may be read from any thread; the histogram may be read and reset by the producer only
 * while no events are in flight (after {@link #processed()} reached what was published).
 */
final class Tally {
  private final Histogram latencyNs = new Histogram(60_000_000_000L, 3);
  private volatile boolean recording;
  private volatile long processed;
  private volatile long errors;
  private long expected;

  /** Takes event {@code value}, meant to be sent at {@code intendedNanos}. */
  void on(long value, long intendedNanos) {
    if (value != expected) {
      errors = errors + 1; // one writer: this consumer's thread
    }
    expected = value + 1;
    if (recording) {
      latencyNs.recordValue(Math.max(0, System.nanoTime() - intendedNanos));
    }
    processed = expected;
  }

  /** Returns how many events this consumer has taken (the next value it expects). */
  long processed() {
    return processed;
  }

  /** Returns how many events arrived out of order or twice. */
  long errors() {
    return errors;
  }

  /** Starts or stops latency recording; resets the histogram when starting. */
  void recording(boolean on) {
    if (on) {
      latencyNs.reset();
    }
    recording = on;
  }

  Histogram latencyNs() {
    return latencyNs;
  }
}
