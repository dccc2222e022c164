package io.github.affinitykit.disruptor.demo;

import io.github.affinitykit.disruptor.WaitKind;
import java.util.Locale;
import java.util.Optional;

/**
 * What carries events from the producer to the consumers in {@code compare-queues}: the queues
 * people write instead of a Disruptor, and the Disruptor under each of its wait strategies.
 *
 * <p>Thread safety: immutable.
 */
enum Contender {
  /** {@link java.util.concurrent.ArrayBlockingQueue}: {@code put} and {@code take}. */
  ABQ("ArrayBlockingQueue(ring): put / take (one lock, two conditions)"),
  /** {@link java.util.concurrent.LinkedBlockingQueue}: {@code put} and {@code take}. */
  LBQ("LinkedBlockingQueue(ring): put / take (two locks, a node per event)"),
  /** Agrona's {@code OneToOneConcurrentArrayQueue}, both ends spinning on {@code onSpinWait}. */
  AGRONA_SPIN("Agrona OneToOneConcurrentArrayQueue(ring): offer / poll, BusySpinIdleStrategy"),
  /** The same queue, both ends backing off with Agrona's {@code BackoffIdleStrategy}. */
  AGRONA_PARK(
      "Agrona OneToOneConcurrentArrayQueue(ring): offer / poll, BackoffIdleStrategy defaults"
          + " (10 spins, 5 yields, then park 1 µs doubling to 1 ms)"),
  /** Disruptor 4, {@link WaitKind#BUSY_SPIN}. */
  DISRUPTOR_BUSY_SPIN("PinnedDisruptor, BusySpinWaitStrategy"),
  /** Disruptor 4, {@link WaitKind#YIELDING}. */
  DISRUPTOR_YIELDING("PinnedDisruptor, YieldingWaitStrategy"),
  /** Disruptor 4, {@link WaitKind#SLEEPING}. */
  DISRUPTOR_SLEEPING("PinnedDisruptor, SleepingWaitStrategy"),
  /** Disruptor 4, {@link WaitKind#BLOCKING}. */
  DISRUPTOR_BLOCKING("PinnedDisruptor, BlockingWaitStrategy");

  private final String description;

  Contender(String description) {
    this.description = description;
  }

  /** Returns the Disruptor's wait strategy, or empty for a queue. */
  Optional<WaitKind> waitKind() {
    return switch (this) {
      case DISRUPTOR_BUSY_SPIN -> Optional.of(WaitKind.BUSY_SPIN);
      case DISRUPTOR_YIELDING -> Optional.of(WaitKind.YIELDING);
      case DISRUPTOR_SLEEPING -> Optional.of(WaitKind.SLEEPING);
      case DISRUPTOR_BLOCKING -> Optional.of(WaitKind.BLOCKING);
      default -> Optional.empty();
    };
  }

  /** Returns the name on the command line and in the table: {@code abq}, {@code disruptor-…}. */
  String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** Returns what exactly runs, for the legend. */
  String description() {
    return description;
  }

  /** Returns the contender labelled {@code label}, or empty. */
  static Optional<Contender> parse(String label) {
    for (Contender c : values()) {
      if (c.label().equalsIgnoreCase(label.strip())) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }
}
