package io.github.affinitykit.bench.load;

import io.github.affinitykit.bench.load.Calibration.Point;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * The calibrated rate from many probes instead of one: {@code ln CPU% = a + b ln rate} fitted by
 * least squares through the warm probes around the target, solved for the target. One probe's CPU%
 * scatters by a few points, and CPU% rises slowly with the rate (a loop that wakes less often per
 * message as the rate grows: {@code b} near 0.5 is usual), so one probe fixes the rate to no better
 * than ±10-20%; the fit averages the scatter of all of them and says how well it fixed the rate (a
 * 95% interval, from the fit's residuals). It interpolates only: a target outside the probed span
 * answers the nearest end of it, said as {@link Outcome#OUTSIDE_SPAN}.
 *
 * <p>Thread safety: immutable.
 *
 * @param outcome what the fit could say
 * @param n the probes fitted
 * @param exponent {@code b}, the fitted exponent (NaN unless fitted)
 * @param rate the rate at which the fit meets the target, msg/s (0 unless {@link #usable()})
 * @param low the 95% interval's lower end, msg/s (0 unless usable)
 * @param high the 95% interval's upper end, msg/s (0 unless usable)
 */
record CalibrationFit(Outcome outcome, int n, double exponent, long rate, long low, long high) {
  /** Fewer probes than this are not fitted (two parameters, and a residual to judge them by). */
  static final int MIN_PROBES = 4;

  /** The interval's confidence. */
  static final double CONFIDENCE = 0.95;

  /** What the fit says. */
  enum Outcome {
    /** The target lies inside the probed span; {@code rate} is where the fit meets it. */
    FITTED,
    /** The fit meets the target outside the probed span; {@code rate} is the nearest end. */
    OUTSIDE_SPAN,
    /**
     * CPU% did not measurably rise with the rate across the probes (the exponent's interval holds
     * 0).
     */
    NO_RISE,
    /** Fewer than {@link #MIN_PROBES} usable probes, or all at one rate. */
    TOO_FEW,
    /** The search ended more than twice its tolerance from the target: nothing to refine there. */
    NOT_NEAR,
    /** No refinement ran ({@code --quick}, or a search not refined). */
    NOT_RUN
  }

  /** No fit: {@code outcome} says why. */
  static CalibrationFit none(Outcome outcome) {
    return new CalibrationFit(outcome, 0, Double.NaN, 0, 0, 0);
  }

  /**
   * Fits {@code probes} (every one used: the caller chose the warm, kept-up ones) and solves for
   * {@code targetPercent}.
   */
  static CalibrationFit of(double targetPercent, List<Point> probes) {
    int n = probes.size();
    double[] x = probes.stream().mapToDouble(p -> Math.log(p.rate())).toArray();
    double[] y = probes.stream().mapToDouble(p -> Math.log(p.cpuPercent())).toArray();
    double mx = Arrays.stream(x).average().orElse(Double.NaN);
    double my = Arrays.stream(y).average().orElse(Double.NaN);
    double sxx = 0;
    double sxy = 0;
    for (int i = 0; i < n; i++) {
      sxx += (x[i] - mx) * (x[i] - mx);
      sxy += (x[i] - mx) * (y[i] - my);
    }
    if (n < MIN_PROBES || sxx < 1e-12) {
      return new CalibrationFit(Outcome.TOO_FEW, n, Double.NaN, 0, 0, 0);
    }
    double b = sxy / sxx;
    double sse = 0;
    for (int i = 0; i < n; i++) {
      double r = y[i] - my - b * (x[i] - mx);
      sse += r * r;
    }
    double s = Math.sqrt(sse / (n - 2));
    double t = new TDistribution(null, n - 2).inverseCumulativeProbability(0.5 + CONFIDENCE / 2);
    if (b <= 0) {
      return new CalibrationFit(Outcome.NO_RISE, n, b, 0, 0, 0);
    }
    double xs = mx + (Math.log(targetPercent) - my) / b;
    double lo = Arrays.stream(x).min().orElse(Double.NaN);
    double hi = Arrays.stream(x).max().orElse(Double.NaN);
    boolean inside = xs >= lo && xs <= hi;
    double at = Math.max(lo, Math.min(hi, xs));
    double half = t * s / b * Math.sqrt(1.0 / n + (at - mx) * (at - mx) / sxx);
    return new CalibrationFit(
        inside ? Outcome.FITTED : Outcome.OUTSIDE_SPAN,
        n,
        b,
        Steering.round(Math.exp(at)),
        Steering.round(Math.exp(at - half)),
        Steering.round(Math.exp(at + half)));
  }

  /** Whether the fit gives the rate every arm runs at. */
  boolean usable() {
    return outcome == Outcome.FITTED || outcome == Outcome.OUTSIDE_SPAN;
  }

  /**
   * The fit in a clause: {@code fit of 9 probes: 93,400 msg/s [89,100–97,900], CPU% ∝ rate^0.56}.
   */
  String describe() {
    return switch (outcome) {
      case FITTED, OUTSIDE_SPAN ->
          String.format(
              Locale.ROOT,
              "fit of %d probes: %,d msg/s [%,d\u2013%,d] (95%%), CPU%% \u221d rate^%.2f%s",
              n,
              rate,
              low,
              high,
              exponent,
              outcome == Outcome.OUTSIDE_SPAN
                  ? "; the target lies outside the probed rates, the nearest end is used"
                  : "");
      case NO_RISE ->
          String.format(
              Locale.ROOT,
              "no fit: CPU%% did not rise with the rate across %d probes (exponent %.2f);"
                  + " the search's probe is used",
              n,
              exponent);
      case TOO_FEW ->
          String.format(
              Locale.ROOT,
              "no fit: %d usable probes around the target (needs %d at 2 rates or more); the"
                  + " search's probe is used",
              n,
              MIN_PROBES);
      case NOT_NEAR ->
          "no fit: the search ended more than twice its tolerance from the target, where the"
              + " curve's local shape says nothing about the target's; the search's probe is used";
      case NOT_RUN -> "no fit: the refinement did not run; the search's probe is used";
    };
  }
}
