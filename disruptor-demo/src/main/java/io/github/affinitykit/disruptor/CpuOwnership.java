package io.github.affinitykit.disruptor;

/**
 * How much of a CPU a thread of a Disruptor has to itself, as far as the host model and an optional
 * audit can tell. The order is from best to worst.
 *
 * <p>Thread safety: immutable.
 */
public enum CpuOwnership {
  /**
   * Pinned to an isolated CPU whose whole physical core is isolated (every SMT sibling too), and no
   * other thread of this Disruptor uses that core.
   */
  ISOLATED_CORE,
  /**
   * Pinned alone on its core, and the audit found its CPU EXCLUSIVE (nothing else ran or may run
   * there, no IRQ, idle sibling) after the rest of the JVM was confined elsewhere.
   */
  AUDITED_EXCLUSIVE,
  /**
   * Pinned alone on its core within this Disruptor, but nothing proves that the core is exclusive:
   * other processes, kernel threads or a busy SMT sibling may run there.
   */
  OWN_CORE,
  /** Unpinned, with at least one core where no consumer is pinned (producers only). */
  FREE_TO_MOVE,
  /**
   * On a core that one or more consumers of this Disruptor also use; for an unpinned producer,
   * every CPU it may use runs a consumer.
   */
  SHARES_WITH_CONSUMER,
  /** On the producer's core. */
  SHARES_WITH_PRODUCER,
  /** Not pinned: the scheduler may put it anywhere, next to the producer or other consumers. */
  UNPINNED;

  /**
   * Returns whether the thread has an exclusive core: the only case where spinning is safe.
   *
   * @return true for {@link #ISOLATED_CORE} and {@link #AUDITED_EXCLUSIVE} only
   */
  public boolean exclusive() {
    return this == ISOLATED_CORE || this == AUDITED_EXCLUSIVE;
  }

  /**
   * Returns whether the thread has a core no other thread of this Disruptor uses.
   *
   * @return true for {@link #OWN_CORE} and the two exclusive kinds, false for the rest
   */
  public boolean ownCore() {
    return exclusive() || this == OWN_CORE;
  }
}
