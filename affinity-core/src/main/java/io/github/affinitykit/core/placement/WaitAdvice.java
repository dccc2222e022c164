package io.github.affinitykit.core.placement;

import java.util.Objects;

/**
 * Whether a thread pinned alone on its core may spin while it waits, and the facts behind the
 * answer: the result of {@link WaitRule#judge}.
 *
 * <p>Thread safety: immutable.
 *
 * @param cpu the CPU the thread is pinned to
 * @param basis which fact decided
 * @param reason the facts, with CPU numbers, for people
 */
public record WaitAdvice(int cpu, WaitAdvice.Basis basis, String reason) {
  /**
   * Validates.
   *
   * @param cpu the CPU the thread is pinned to, 0-based
   * @param basis which fact decided; not null
   * @param reason the facts, with CPU numbers, for people; not null
   */
  public WaitAdvice {
    Objects.requireNonNull(basis, "basis");
    Objects.requireNonNull(reason, "reason");
    if (cpu < 0) {
      throw new IllegalArgumentException("cpu: " + cpu + " (expected: >= 0)");
    }
  }

  /**
   * Returns whether spinning is safe here: the CPU is proven exclusive.
   *
   * @return true to busy-poll; false to park or back off
   */
  public boolean spin() {
    return basis.exclusive();
  }

  /**
   * The fact that decided, from best to worst.
   *
   * <p>Thread safety: immutable.
   */
  public enum Basis {
    /** Isolated (isolcpus domain, nohz_full or an isolated partition), with its whole core. */
    ISOLATED_CORE,
    /** An exclusivity audit found the CPU EXCLUSIVE. */
    AUDITED_EXCLUSIVE,
    /** Isolated, but an SMT core-mate is not: general work runs on the same core. */
    ISOLATED_SHARED_CORE,
    /** Not isolated, and the audit saw other tasks or IRQs there. */
    AUDITED_SHARED,
    /** Not isolated and not audited: nothing proves that the CPU is exclusive. */
    NOT_AUDITED;

    /**
     * Returns whether this basis proves the CPU exclusive.
     *
     * @return true for {@link #ISOLATED_CORE} and {@link #AUDITED_EXCLUSIVE} only
     */
    public boolean exclusive() {
      return this == ISOLATED_CORE || this == AUDITED_EXCLUSIVE;
    }
  }
}
