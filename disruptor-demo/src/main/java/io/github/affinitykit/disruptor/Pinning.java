package io.github.affinitykit.disruptor;

/**
 * Which threads of a Disruptor are pinned to CPUs of the pool.
 *
 * <p>Thread safety: immutable.
 */
public enum Pinning {
  /**
   * Nothing is pinned: the scheduler places producer and consumers (the group is built {@code
   * unpinned}).
   */
  UNPINNED,
  /** Each consumer (event processor thread) is pinned; the producer runs where it likes. */
  CONSUMERS,
  /**
   * The producer is pinned too: it is planned first, so that it gets a CPU of its own whenever the
   * pool has one, and pins itself with {@link PinnedDisruptor#pinProducer()}.
   */
  ALL
}
