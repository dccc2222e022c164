package io.github.affinitykit.disruptor.demo;

import com.lmax.disruptor.RingBuffer;
import java.util.concurrent.locks.LockSupport;

/**
 * The demo's single producer: publishes numbered events flat out or at a fixed rate, and waits for
 * the last stage to drain them.
 *
 * <p>Thread safety: confined to the producer thread.
 */
final class Producer {
  private static final long DRAIN_POLL_NS = 20_000;

  private final RingBuffer<DemoEvent> ring;
  private final StageHandler last;
  private long next;

  Producer(RingBuffer<DemoEvent> ring, StageHandler last) {
    this.ring = ring;
    this.last = last;
  }

  /** Publishes as fast as the ring takes events for {@code nanos}; returns how many. */
  long burst(long nanos) {
    long start = next;
    long end = System.nanoTime() + nanos;
    do {
      for (int i = 0; i < 256; i++) {
        publish(0);
      }
    } while (System.nanoTime() < end);
    return next - start;
  }

  /**
   * Publishes {@code events} at {@code rate} per second, each stamped with the time it was meant to
   * be sent, so that a late send counts against latency (no coordinated omission). Between events
   * the producer yields: it stays runnable, as a thread polling its input would, but a consumer
   * waiting for the same CPU runs first. Stops at {@code deadlineNanos}.
   *
   * @return how many were published
   */
  long paced(long events, long rate, long deadlineNanos) {
    double intervalNs = 1e9 / rate;
    long start = System.nanoTime() + 100_000;
    long i = 0;
    for (; i < events; i++) {
      long intended = start + (long) (i * intervalNs);
      long now;
      while ((now = System.nanoTime()) < intended) {
        Thread.yield(); // runnable, but anything waiting for this CPU goes first
      }
      if (now > deadlineNanos) {
        break;
      }
      publish(intended);
    }
    return i;
  }

  private void publish(long intendedNanos) {
    long seq = ring.next();
    ring.get(seq).set(next++, intendedNanos);
    ring.publish(seq);
  }

  /** Waits until the last stage has handled everything published; false after the timeout. */
  boolean drain(long timeoutNanos) {
    long end = System.nanoTime() + timeoutNanos;
    while (last.processed() < next) {
      if (System.nanoTime() > end) {
        return false;
      }
      LockSupport.parkNanos(DRAIN_POLL_NS);
    }
    return true;
  }

  /** Returns how many events were published in all. */
  long published() {
    return next;
  }
}
