package io.github.affinitykit.bench.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * The bounded ramp for a server's capacity: the highest offered rate it sustains (p99 under the
 * SLO, nothing lost). From a first, already measured rate it steps up by {@code factor} while
 * probes pass. Where the first rate fails (p99 at the operating point already over the SLO) it
 * descends by halves, from the first rate or from a lower rate an earlier trial met the SLO at,
 * until a probe passes or the floor ({@link #FLOOR_DIVISOR} times below the first rate) fails too:
 * then the SLO is out of reach. Once it has a passing and a failing rate it bisects between them
 * (geometrically) with at most {@code maxProbes} probes, stopping early when the bracket is within
 * 5%. Every probe is measured alike (the caller's); the run's budget may stop it at any probe.
 *
 * <p>Thread safety: a value; {@link #search} calls its probe from the calling thread only.
 *
 * @param factor the step up while no failing rate is known, > 1
 * @param maxProbes probes after the first measurement and the descent, >= 0
 */
record CapacityRamp(double factor, int maxProbes) {
  /**
   * The descent stops at the first rate divided by this (five halvings): p99 over the SLO at a
   * thirty-second of the operating point's load is not the load's doing.
   */
  static final long FLOOR_DIVISOR = 32;

  /** Offers a rate and says whether the server sustained it. */
  interface Probe {
    /** Offers {@code rate} msg/s; true if p99 stayed under the SLO and nothing was lost. */
    boolean sustains(long rate) throws InterruptedException;
  }

  /** One probe: a rate and whether it was sustained. */
  record Step(long rate, boolean sustained) {}

  /**
   * What the ramp found.
   *
   * @param rate the highest sustained rate probed, msg/s (0 if none was sustained)
   * @param atLeast true if no probed rate failed: the capacity is this rate or more
   * @param steps every probe, the first measurement included
   * @param outOfReach true if the descent reached its floor and p99 was over the SLO there too
   */
  record Result(long rate, boolean atLeast, List<Step> steps, boolean outOfReach) {
    /** Validates. */
    Result {
      steps = List.copyOf(steps);
    }

    /** A result whose ramp did not reach the descent's floor. */
    Result(long rate, boolean atLeast, List<Step> steps) {
      this(rate, atLeast, steps, false);
    }

    /**
     * {@code ">= 40,000"}, {@code "28,000"}, {@code "below the lowest rate probed (5,000)"} or
     * {@code "out of reach (p99 over the SLO down to 1,800)"} msg/s: never 0.
     */
    String describe() {
      if (outOfReach) {
        return String.format(Locale.ROOT, "out of reach (p99 over the SLO down to %,d)", lowest());
      }
      if (rate == 0) {
        return String.format(Locale.ROOT, "below the lowest rate probed (%,d)", lowest());
      }
      return String.format(Locale.ROOT, "%s%,d", atLeast ? ">= " : "", rate);
    }

    /** The lowest rate probed, msg/s (0 without probes). */
    long lowest() {
      return steps.stream().mapToLong(Step::rate).min().orElse(0);
    }

    /**
     * Where the next trial's descent should start: the rate this one met the SLO at, or the lowest
     * it probed, if it descended; else {@code previous}.
     */
    long descentFrom(long previous) {
      boolean descended = !steps.isEmpty() && !steps.get(0).sustained();
      return !descended ? previous : rate > 0 ? rate : lowest();
    }
  }

  /** Validates. */
  CapacityRamp {
    if (!(factor > 1) || maxProbes < 0) {
      throw new IllegalArgumentException(
          "capacity ramp: factor "
              + factor
              + ", probes "
              + maxProbes
              + " (expected: factor > 1, probes >= 0)");
    }
  }

  /** Ramps from {@code first}, whose outcome is already known, probing with {@code probe}. */
  Result search(Step first, Probe probe) throws InterruptedException {
    return search(first, 0, probe, () -> true);
  }

  /**
   * Ramps from {@code first} while {@code mayProbe} allows another probe (the run's time budget):
   * the result then holds what the probes so far found. If {@code first} failed, the descent starts
   * at {@code from} where it lies below it (a rate an earlier trial met the SLO at; 0 = none), else
   * at half of it.
   */
  Result search(Step first, long from, Probe probe, BooleanSupplier mayProbe)
      throws InterruptedException {
    List<Step> steps = new ArrayList<>(List.of(first));
    long pass = first.sustained() ? first.rate() : 0;
    long fail = first.sustained() ? Long.MAX_VALUE : first.rate();
    long floor = Math.max(Calibration.MIN_RATE, first.rate() / FLOOR_DIVISOR);
    if (!first.sustained() && floor < first.rate()) {
      long rate = from > 0 && from < fail ? from : fail / 2;
      while (rate >= floor / 2 && mayProbe.getAsBoolean()) {
        rate = Math.max(rate, floor);
        boolean ok = probe.sustains(rate);
        steps.add(new Step(rate, ok));
        if (ok) {
          pass = rate;
          break;
        }
        fail = rate;
        if (rate == floor) {
          return new Result(0, false, steps, true);
        }
        rate /= 2;
      }
    }
    for (int i = 0; i < maxProbes && pass > 0 && mayProbe.getAsBoolean(); i++) {
      long rate;
      if (fail == Long.MAX_VALUE) {
        rate = Math.round(pass * factor);
      } else if (fail <= pass * 1.05) {
        break;
      } else {
        rate = Math.round(Math.sqrt((double) pass * fail));
      }
      boolean ok = probe.sustains(rate);
      steps.add(new Step(rate, ok));
      if (ok) {
        pass = Math.max(pass, rate);
      } else {
        fail = Math.min(fail, rate);
      }
    }
    return new Result(pass, fail == Long.MAX_VALUE, steps);
  }
}
