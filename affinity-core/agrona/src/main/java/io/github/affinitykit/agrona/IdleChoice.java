package io.github.affinitykit.agrona;

import io.github.affinitykit.core.placement.WaitAdvice;
import java.util.Objects;
import java.util.Optional;

/**
 * How a {@link PlacedIdleStrategy} chose to idle, on which thread and CPU, and why.
 *
 * <p>Thread safety: immutable.
 *
 * @param mode busy-spin or back off
 * @param thread the name of the thread that chose, when it chose
 * @param cpu the CPU the thread is pinned to; -1 when it is not pinned
 * @param advice the placement rule's answer ({@code core.placement.WaitRule}); empty when the rule
 *     was not asked (the thread is not pinned alone on its core)
 * @param reason the facts, with CPU numbers, for people
 */
public record IdleChoice(
    IdleChoice.Mode mode, String thread, int cpu, Optional<WaitAdvice> advice, String reason) {
  /**
   * Validates.
   *
   * @param mode busy-spin or back off; not null
   * @param thread the name of the thread that chose; not null
   * @param cpu the thread's CPU, 0-based; -1 when it is not pinned
   * @param advice the placement rule's answer; present, and saying spin, for {@link Mode#BUSY_SPIN}
   * @param reason the facts; not null
   * @throws IllegalArgumentException if {@code cpu} is below -1, or {@code mode} is {@link
   *     Mode#BUSY_SPIN} without advice that says spin
   */
  public IdleChoice {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(thread, "thread");
    Objects.requireNonNull(advice, "advice");
    Objects.requireNonNull(reason, "reason");
    if (cpu < -1) {
      throw new IllegalArgumentException("cpu: " + cpu + " (expected: >= -1)");
    }
    if (mode == Mode.BUSY_SPIN && !advice.map(WaitAdvice::spin).orElse(false)) {
      throw new IllegalArgumentException(
          "advice: " + advice + " (expected: a WaitAdvice that says spin, for BUSY_SPIN)");
    }
  }

  /**
   * Returns whether the strategy busy-spins.
   *
   * @return true for {@link Mode#BUSY_SPIN}
   */
  public boolean spin() {
    return mode == Mode.BUSY_SPIN;
  }

  @Override
  public String toString() {
    return thread + (cpu < 0 ? " unpinned" : " cpu " + cpu) + " idle " + mode + ": " + reason;
  }

  /**
   * What the strategy does while its agent has no work.
   *
   * <p>Thread safety: immutable.
   */
  public enum Mode {
    /** Agrona's {@code BusySpinIdleStrategy}: only on a CPU proven exclusive. */
    BUSY_SPIN,
    /** Agrona's {@code BackoffIdleStrategy}: spins, yields, then parks, everywhere else. */
    BACKOFF
  }
}
