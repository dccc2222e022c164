package io.github.affinitykit.bench.queues;

/**
 * One producer (the JMH thread) handing every event to each of N consumer threads.
 *
 * <p>Thread safety: {@link #publish} and {@link #close()} from the producer thread; {@link
 * #slowest()} from any thread.
 */
interface FanOut extends AutoCloseable {
  /** Hands event {@code value} (0, 1, 2, …) to every consumer. */
  void publish(long value) throws InterruptedException;

  /** Returns how many events the slowest consumer has taken. */
  long slowest();

  /** Stops and joins the consumers, frees every CPU. */
  @Override
  void close();
}
