package io.github.affinitykit.core.cli;

import io.github.affinitykit.audit.CpuVerdict;
import io.github.affinitykit.jitter.CpuJitter;
import io.github.affinitykit.jitter.GapHistogram;
import java.util.Objects;

/**
 * One CPU's line of a jitter arm, in the units every arm shares: the gaps of the floor or more that
 * a spinning thread saw, the longest, the p99.99 and the share of the time sampled they took.
 *
 * <p><b>p99.99</b> is the length that at least 99.99% of those gaps are shorter than or equal to,
 * read from a histogram as the upper end of the bucket it falls in: an upper bound, within a factor
 * of 2 for the kit's log-2 buckets (capped at the longest gap, which the kit knows exactly), within
 * one of MicroJitterSampler's thresholds for the anchor. With fewer than 10,000 gaps it is the
 * longest gap itself (the ceil(0.9999 n)-th of n gaps is the n-th).
 *
 * <p>Thread safety: immutable.
 *
 * @param cpu the CPU
 * @param thread how the sampling thread ran there: its lease's status, or the anchor's pinning
 * @param sampledNs the time sampled, ns
 * @param gaps the gaps of the floor or more
 * @param maxGap the longest gap
 * @param p9999 the p99.99 gap, as above
 * @param lost the time lost in gaps, ns, its bound
 * @param lostShare {@code lost / sampledNs}, in [0, 1]
 * @param audit the audit's verdict on the CPU over the window, {@code -} when none
 * @param cause what moved around the longest gap, {@code -} when not known
 */
record ArmRow(
    int cpu,
    String thread,
    long sampledNs,
    long gaps,
    Amount maxGap,
    Amount p9999,
    Amount lost,
    double lostShare,
    String audit,
    String cause) {

  /** How a figure is known. */
  enum Bound {
    /** Measured exactly. */
    EXACT(""),
    /** The figure or less: a bucket's upper end. */
    AT_MOST("≤ "),
    /** The figure or more: a threshold's lower end, a sum of them. */
    AT_LEAST("≥ ");

    private final String sign;

    Bound(String sign) {
      this.sign = sign;
    }

    String sign() {
      return sign;
    }
  }

  /**
   * A length in ns and how it is known; {@link Long#MAX_VALUE} for no upper end.
   *
   * @param ns the length
   * @param bound how it is known
   */
  record Amount(long ns, Bound bound) {
    Amount {
      Objects.requireNonNull(bound, "bound");
    }
  }

  ArmRow {
    Objects.requireNonNull(thread, "thread");
    Objects.requireNonNull(maxGap, "maxGap");
    Objects.requireNonNull(p9999, "p9999");
    Objects.requireNonNull(lost, "lost");
    Objects.requireNonNull(audit, "audit");
    Objects.requireNonNull(cause, "cause");
    if (!(lostShare >= 0 && lostShare <= 1)) {
      throw new IllegalArgumentException("lostShare: " + lostShare + " (expected: in [0, 1])");
    }
  }

  /** The p99.99 fraction. */
  static final double P9999 = 0.9999;

  /** The row of what the kit's sampler saw on one CPU. */
  static ArmRow of(CpuJitter c) {
    return new ArmRow(
        c.cpu(),
        c.status().name(),
        c.spanNs(),
        c.histogram().totalCount(),
        new Amount(c.maxGapNs(), Bound.EXACT),
        p9999(c.histogram(), c.maxGapNs()),
        new Amount(c.lostNs(), Bound.EXACT),
        c.lostShare(),
        c.audit().map(v -> v.verdict().name()).orElse("-"),
        c.largest().isEmpty() ? "-" : c.largest().get(0).attribution().cause());
  }

  /**
   * The p99.99 of {@code h} whose longest gap is {@code maxNs}: below 10,000 gaps the longest
   * exactly (it is the ceil(0.9999 n)-th of n), else its bucket's upper end capped at the longest.
   */
  static Amount p9999(GapHistogram h, long maxNs) {
    long n = h.totalCount();
    if (n < 10_000) {
      return new Amount(maxNs, Bound.EXACT);
    }
    return new Amount(Math.min(h.upperBoundNs(P9999), maxNs), Bound.AT_MOST);
  }

  /** The audit's verdict word, for the doctor: UNKNOWN where the audit gave none. */
  static String verdict(CpuJitter c) {
    return c.audit().map(CpuVerdict::verdict).map(Enum::name).orElse("UNKNOWN");
  }
}
