package io.github.affinitykit.disruptor.demo;

/**
 * One ring slot of the demo: the producer's running count, the time it was meant to be sent, and
 * the last pipeline stage that handled it. Mutable and reused by the ring.
 *
 * <p>Thread safety: written by the producer before publishing and by each stage in turn; the
 * Disruptor's sequences order those writes.
 */
final class DemoEvent {
  private long value;
  private long intendedNanos;
  private int stage = -1;

  /** Fills the slot for publishing. */
  void set(long value, long intendedNanos) {
    this.value = value;
    this.intendedNanos = intendedNanos;
    this.stage = -1;
  }

  long value() {
    return value;
  }

  long intendedNanos() {
    return intendedNanos;
  }

  int stage() {
    return stage;
  }

  void stage(int stage) {
    this.stage = stage;
  }
}
