package io.github.affinitykit.bench.wakeup;

/**
 * A consumer fed by one producer: {@link #publish()} hands over one event, {@link #consumed()}
 * counts the events the consumer has finished.
 *
 * <p>Thread safety: one producer thread calls {@link #publish()}; {@link #consumed()} from any.
 */
interface EventSink {
  /** Publishes one event and wakes the consumer as the mechanism does. */
  void publish() throws Exception;

  /** Returns the number of events consumed so far. */
  long consumed();

  /** Stops the consumer and joins it. */
  void stop() throws Exception;

  /** Busy work of about {@code ns} nanoseconds (0: none). */
  static void work(long ns) {
    if (ns > 0) {
      long until = System.nanoTime() + ns;
      while (System.nanoTime() < until) {
        Thread.onSpinWait();
      }
    }
  }
}
