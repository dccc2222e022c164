package io.github.affinitykit.bench.wakeup;

import java.io.IOException;
import java.util.function.BooleanSupplier;

/**
 * One way for a producer to wake a waiting consumer: the mechanism under test. {@link #await} may
 * return spuriously; callers re-check their condition.
 *
 * <p>Thread safety: one producer calls {@link #signal()}, one consumer calls {@link #await}.
 */
interface Signal extends AutoCloseable {
  /** Wakes the consumer if it waits (the producer calls it after publishing). */
  void signal() throws IOException;

  /** Waits until {@code ready} holds or the mechanism wakes the caller. */
  void await(BooleanSupplier ready) throws IOException, InterruptedException;

  /** Records the consumer thread (for mechanisms that wake a thread by identity). */
  default void consumer(Thread consumer) {}

  @Override
  default void close() throws IOException {}
}
