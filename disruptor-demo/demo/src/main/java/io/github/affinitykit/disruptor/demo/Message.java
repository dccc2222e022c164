package io.github.affinitykit.disruptor.demo;

/**
 * An event as a queue carries it: a new object per event, as code handing work to a queue allocates
 * one (the Disruptor reuses its ring slots instead). In 1P→3C the producer puts the same message
 * into each consumer's queue.
 *
 * <p>Thread safety: immutable; safely published by the queue.
 */
final class Message {
  private final long value;
  private final long intendedNanos;

  Message(long value, long intendedNanos) {
    this.value = value;
    this.intendedNanos = intendedNanos;
  }

  long value() {
    return value;
  }

  long intendedNanos() {
    return intendedNanos;
  }
}
