package io.github.affinitykit.jitter;

import java.time.Instant;
import java.util.Objects;

/**
 * One gap a sampling thread saw between two consecutive reads of its clock: the time its CPU did
 * something else (an interrupt, a softirq, another task, the hypervisor) or stalled.
 *
 * <p>Thread safety: immutable.
 *
 * @param cpu the CPU the sampling thread was pinned to; -1 if it had none of its own
 * @param startNanos {@link System#nanoTime()} of the read before the gap
 * @param start the wall-clock time of that read (the window's wall-clock start plus the monotonic
 *     time since)
 * @param durationNs the gap's length, ns
 * @param attribution the counters that moved while it happened
 */
public record Gap(
    int cpu, long startNanos, Instant start, long durationNs, Attribution attribution) {
  /**
   * Validates.
   *
   * @param cpu the CPU, -1 if none
   * @param startNanos the monotonic start
   * @param start the wall-clock start; not null
   * @param durationNs the length, positive
   * @param attribution what moved; not null
   */
  public Gap {
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(attribution, "attribution");
  }

  @Override
  public String toString() {
    return "cpu "
        + cpu
        + ": "
        + durationNs / 1000.0
        + " µs at "
        + start
        + " ("
        + attribution.cause()
        + ")";
  }
}
