package io.github.affinitykit.bench.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * The bounded ramp for a server's capacity: the highest offered rate it sustains (p99 under the
 * SLO, nothing lost). From a first, already measured rate it steps up by {@code factor} while
 * probes pass and down while they fail; once it has a passing and a failing rate it bisects between
 * them (geometrically). At most {@code maxProbes} probes after the first; it stops early when the
 * bracket is within 5%.
 *
 * <p>Thread safety: a value; {@link #search} calls its probe from the calling thread only.
 *
 * @param factor the step while no bracket is known, > 1
 * @param maxProbes probes after the first measurement, >= 0
 */
record CapacityRamp(double factor, int maxProbes) {

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
   */
  record Result(long rate, boolean atLeast, List<Step> steps) {
    /**
     * {@code ">= 40,000"}, {@code "28,000"} or, when no probed rate met the SLO, {@code "below the
     * lowest rate probed (5,000)"} msg/s: never 0.
     */
    String describe() {
      if (rate == 0) {
        return String.format(Locale.ROOT, "below the lowest rate probed (%,d)", lowest());
      }
      return String.format(Locale.ROOT, "%s%,d", atLeast ? ">= " : "", rate);
    }

    /** The lowest rate probed, msg/s (0 without probes). */
    long lowest() {
      return steps.stream().mapToLong(Step::rate).min().orElse(0);
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
    return search(first, probe, () -> true);
  }

  /**
   * Ramps from {@code first} while {@code mayProbe} allows another probe (the run's time budget):
   * the result then holds what the probes so far found.
   */
  Result search(Step first, Probe probe, BooleanSupplier mayProbe) throws InterruptedException {
    List<Step> steps = new ArrayList<>(List.of(first));
    long pass = first.sustained() ? first.rate() : 0;
    long fail = first.sustained() ? Long.MAX_VALUE : first.rate();
    for (int i = 0; i < maxProbes && mayProbe.getAsBoolean(); i++) {
      long rate;
      if (fail == Long.MAX_VALUE) {
        rate = Math.round(pass * factor);
      } else if (pass == 0) {
        rate = Math.round(fail / factor);
      } else if (fail <= pass * 1.05) {
        break;
      } else {
        rate = Math.round(Math.sqrt((double) pass * fail));
      }
      if (rate < Calibration.MIN_RATE) {
        break;
      }
      boolean ok = probe.sustains(rate);
      steps.add(new Step(rate, ok));
      if (ok) {
        pass = Math.max(pass, rate);
      } else {
        fail = Math.min(fail, rate);
      }
    }
    return new Result(pass, fail == Long.MAX_VALUE, List.copyOf(steps));
  }
}
