package io.github.affinitykit.netty;

import java.util.Locale;

/**
 * How an event loop waits when it has nothing to do: the Netty counterpart of the Disruptor's wait
 * strategies, applied through Netty's own {@code SelectStrategy} hook (NIO and epoll; io_uring has
 * none, so there it is always {@link #BLOCK}, and the report says so).
 *
 * <p>Thread safety: immutable.
 */
public enum WaitPolicy {
  /**
   * Netty's default: poll once, then block in {@code select}/{@code epoll_wait} until I/O, a task
   * or a timer arrives. No CPU while idle; every message that finds the loop asleep pays a wake-up
   * (a voluntary context switch).
   */
  BLOCK,
  /**
   * Poll without blocking for up to a {@link SpinLimit} after the last work (time or empty polls),
   * then block. Under load the loop never sleeps (≈ 0 context switches per message); once idle
   * longer than the limit it costs nothing. It burns up to the limit of CPU after every burst.
   */
  SPIN_THEN_BLOCK,
  /**
   * Poll without blocking, for ever: the lowest wake-up latency, 100% of its CPU even when idle.
   * Only for a loop that owns an exclusive core.
   */
  BUSY_POLL,
  /**
   * Chosen per loop by core's wait rule ({@code WaitAdvice.decide}, which the Disruptor and Agrona
   * translate too): {@link #SPIN_THEN_BLOCK} on a CPU proven exclusive (whole core isolated, or
   * audited EXCLUSIVE), with no other loop of the server on its core; {@link #BLOCK} everywhere
   * else. The report gives the reason per loop.
   */
  AUTO;

  /**
   * Returns the command-line name: {@code block}, {@code spin-then-block}, ...
   *
   * @return the constant's name in lower case, {@code -} between words; {@link #parse} reads it
   */
  public String cliName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * Parses {@code block}, {@code spin-then-block}, {@code busy-poll} or {@code auto}, in any case,
   * with {@code -} or {@code _} between words.
   *
   * @param name the policy's name; surrounding blanks are ignored; not null
   * @return the policy named
   * @throws IllegalArgumentException naming the value and the accepted names
   */
  public static WaitPolicy parse(String name) {
    String n = name.strip().toUpperCase(Locale.ROOT).replace('-', '_');
    for (WaitPolicy p : values()) {
      if (p.name().equals(n)) {
        return p;
      }
    }
    throw new IllegalArgumentException(
        "wait policy: " + name + " (expected: block, spin-then-block, busy-poll or auto)");
  }
}
