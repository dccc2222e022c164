package io.github.affinitykit.disruptor.demo;

import java.util.List;

/**
 * One producer (the calling thread) and N consumers that each see every event, whatever carries
 * them: a Disruptor ({@link DisruptorPipeline}) or one queue per consumer ({@link QueuePipeline}).
 *
 * <p>Thread safety: {@link #publish} and {@link #close()} from the producer thread only; the
 * accessors from any thread.
 */
interface Pipeline extends AutoCloseable {
  /** Hands event {@code value}, meant to be sent at {@code intendedNanos}, to every consumer. */
  void publish(long value, long intendedNanos) throws InterruptedException;

  /** Returns each consumer's bookkeeping, by consumer index. */
  List<Tally> tallies();

  /** Returns the consumers' kernel thread ids (-1 where unknown). */
  List<Integer> consumerThreadIds();

  /**
   * Returns the CPU each thread was bound to, {@code producer/consumer,…}, {@code *} = unpinned.
   */
  String cpus();

  /** Returns one line per thread: its name, CPU and lease status, from the assignments. */
  List<String> assignments();

  /** Stops the consumers, joins them, frees every CPU (and the producer's). */
  @Override
  void close();
}
