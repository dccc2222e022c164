package io.github.affinitykit.bench.load;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The bounded search for the offered rate at which a warmed server uses a target CPU%. It assumes
 * only that CPU% does not fall as the rate rises, and checks that on every probe: the probes below
 * the target and those above it (or that the server could not keep up with) bracket the answer;
 * inside a bracket the next rate is interpolated but kept off its ends, so the bracket shrinks
 * whatever the curve's shape; outside one it steps by the secant (or proportionally) at most 4×. A
 * probe whose server did not reach steady state is probed again once and steers only when no warm
 * probe exists. It stops within {@code tolerance} of the target, or says why it stopped: the data
 * contradicting a rising curve, the bracket narrower than {@link #RESOLUTION}, the probe limit, the
 * time budget (no probe starts that would end after it, judged by the last probe's length); it
 * answers a measured probe, never an extrapolation.
 *
 * <p>Thread safety: a value; {@link #search} calls its probe from the calling thread only.
 *
 * @param targetPercent the CPU% sought (100 = one CPU)
 * @param tolerancePercent a probe this close to the target ends the search (CPU% points)
 * @param startRate the first probe's rate, msg/s
 * @param maxProbes at most this many probes
 * @param budgetNs no probe starts that would end after this long since the search began
 */
record Calibration(
    double targetPercent, double tolerancePercent, long startRate, int maxProbes, long budgetNs) {

  /** The lowest rate probed. */
  static final long MIN_RATE = 100;

  /** A bracket narrower than this (relative) is not split further. */
  static final double RESOLUTION = 0.02;

  /** Measures the server at an offered rate. */
  interface Probe {
    /** Offers {@code rate} msg/s to the warming server and returns what it measured. */
    Point at(long rate) throws InterruptedException;
  }

  /**
   * One probe.
   *
   * @param rate the offered rate, msg/s
   * @param cpuPercent the server's CPU over the recorded window after its warm-up; +Infinity if it
   *     did not keep up
   * @param steady whether its warm-up met the steady-state criterion
   * @param warmupNs how long the warm-up took
   * @param othersCpuPercent CPU other processes used over the window, 100 = one CPU (as a trial's;
   *     recorded, not judged: NaN where not measured)
   * @param clientCpuPercent CPU the load test's own JVM used over the window (NaN: not measured)
   * @param switchesPerMessage the server's context switches per echoed message (NaN: not measured)
   */
  record Point(
      long rate,
      double cpuPercent,
      boolean steady,
      long warmupNs,
      double othersCpuPercent,
      double clientCpuPercent,
      double switchesPerMessage) {
    /** A probe without what was measured around the server. */
    Point(long rate, double cpuPercent, boolean steady, long warmupNs) {
      this(rate, cpuPercent, steady, warmupNs, Double.NaN, Double.NaN, Double.NaN);
    }

    boolean keptUp() {
      return Double.isFinite(cpuPercent);
    }
  }

  /**
   * What the search found.
   *
   * @param target the CPU% sought
   * @param tolerance the tolerance, CPU% points
   * @param best the search's answer, the nearest warm probe to the target: the rate every arm runs
   *     at unless {@code fit} gives one
   * @param probes every probe, in order
   * @param stop why the search ended
   * @param fit the refinement's fit through the probes around the target ({@link
   *     CalibrationFit.Outcome#NOT_RUN} before or without one)
   */
  record Result(
      double target,
      double tolerance,
      Point best,
      List<Point> probes,
      String stop,
      CalibrationFit fit) {
    /** The search's result, not refined. */
    Result(double target, double tolerance, Point best, List<Point> probes, String stop) {
      this(
          target,
          tolerance,
          best,
          probes,
          stop,
          CalibrationFit.none(CalibrationFit.Outcome.NOT_RUN));
    }

    /** Validates. */
    Result {
      Objects.requireNonNull(best, "best");
      probes = List.copyOf(probes);
      Objects.requireNonNull(stop, "stop");
      Objects.requireNonNull(fit, "fit");
    }

    /** The rate every arm runs at: the fit's, when it gave one, else the search's nearest probe. */
    long rate() {
      return fit.usable() ? fit.rate() : best.rate();
    }

    /**
     * Whether the answer holds the target: a fit that met it inside the probed rates, or (without a
     * fit) a warm probe within tolerance of it.
     */
    boolean landed() {
      if (fit.usable()) {
        return fit.outcome() == CalibrationFit.Outcome.FITTED;
      }
      return best.steady() && Math.abs(best.cpuPercent() - target) <= tolerance;
    }

    /** One line for the console and the report. */
    String describe() {
      if (fit.usable()) {
        return String.format(
            Locale.ROOT,
            "calibrated: %,d msg/s for the unpinned server at %.0f%% CPU (%s; the search: %,d"
                + " msg/s at %.1f%%, %s)",
            rate(),
            target,
            fit.describe(),
            best.rate(),
            best.cpuPercent(),
            stop);
      }
      if (!best.keptUp()) {
        return String.format(
            Locale.ROOT,
            "calibrated: %,d msg/s, the lowest of %d probes; the unpinned server kept up with none"
                + " (%s)",
            best.rate(),
            probes.size(),
            stop);
      }
      return String.format(
          Locale.ROOT,
          "calibrated: %,d msg/s, the unpinned server at %.1f%% CPU %s (target %.0f%% \u00b1 %.0f,"
              + " %d probes; %s; %s)",
          best.rate(),
          best.cpuPercent(),
          best.steady() ? "in steady state" : "NOT in steady state",
          target,
          tolerance,
          probes.size(),
          stop,
          fit.describe());
    }
  }

  /** Validates. */
  Calibration {
    if (!(targetPercent > 0) || !(tolerancePercent > 0) || startRate < MIN_RATE || maxProbes < 1) {
      throw new IllegalArgumentException(
          "calibration: target "
              + targetPercent
              + ", tolerance "
              + tolerancePercent
              + ", start "
              + startRate
              + ", probes "
              + maxProbes
              + " (expected: > 0, > 0, >= "
              + MIN_RATE
              + ", >= 1)");
    }
  }

  /** Runs the search with {@code probe}, timing probes by {@code clock} (ns). */
  Result search(Probe probe, LongSupplier clock) throws InterruptedException {
    Objects.requireNonNull(probe, "probe");
    long began = clock.getAsLong();
    List<Point> points = new ArrayList<>();
    long rate = startRate;
    long lastNs = 0;
    boolean rechecked = false;
    String stop = "probe limit " + maxProbes + "; the nearest probe is used";
    while (points.size() < maxProbes) {
      long t0 = clock.getAsLong();
      if (!points.isEmpty() && t0 - began + lastNs > budgetNs) {
        stop = "time budget " + budgetNs / 1_000_000_000L + " s; the nearest probe is used";
        break;
      }
      Point p = probe.at(rate);
      lastNs = clock.getAsLong() - t0; // the first, on a cold JVM, is the longest
      points.add(p);
      if (p.steady() && Math.abs(p.cpuPercent() - targetPercent) <= tolerancePercent) {
        stop = String.format(Locale.ROOT, "within %.0f points", tolerancePercent);
        break;
      }
      if (!p.steady() && points.stream().filter(q -> q.rate() == p.rate()).count() == 1) {
        continue; // not warm: the same rate once more, on a JVM that is warmer now
      }
      Step next = new Steering(this, points, !rechecked).next();
      if (next.stop() != null) {
        stop = next.stop();
        break;
      }
      rechecked |= next.recheck();
      rate = next.rate();
    }
    return new Result(targetPercent, tolerancePercent, best(points), List.copyOf(points), stop);
  }

  /**
   * The next rate, or why there is none.
   *
   * @param rate the next rate (0 with a stop)
   * @param stop why the search ends; null if it goes on
   * @param recheck whether the rate is measured again because the probes contradicted each other
   */
  record Step(long rate, String stop, boolean recheck) {}

  /** The nearest warm probe that kept up; else the nearest that kept up; else the lowest. */
  Point best(List<Point> points) {
    Comparator<Point> nearest =
        Comparator.comparingDouble(p -> Math.abs(p.cpuPercent() - targetPercent));
    return points.stream()
        .filter(p -> p.keptUp() && p.steady())
        .min(nearest)
        .or(() -> points.stream().filter(Point::keptUp).min(nearest))
        .orElseGet(() -> points.stream().min(Comparator.comparingLong(Point::rate)).orElseThrow());
  }
}
