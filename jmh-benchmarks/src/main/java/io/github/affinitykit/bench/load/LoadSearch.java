package io.github.affinitykit.bench.load;

import java.time.Duration;
import java.util.Objects;

/**
 * The load test's plan around its trials: the calibration of the offered rate (the rate at which
 * the warmed unpinned gateway uses {@code targetCpuPercent} of its server CPUs), each trial's
 * capacity ramp (the highest rate sustained with p99 under {@code slo}), the idle window that
 * measures the CPU a server burns with its connections open and no traffic, whether the controls
 * run, and the time budget the whole run, re-measurements included, must fit.
 *
 * <p>Thread safety: immutable.
 *
 * @param calibrate whether to calibrate (false: {@code --rate} fixed the rate)
 * @param targetCpuPercent % of the server CPUs the unpinned gateway should use (100 = all of them)
 * @param calibrationProbes at most this many calibration probes
 * @param calibrationBudget no calibration probe starts that would end after this long
 * @param refinement the calibration's second stage: probes around the search's answer, fitted
 * @param slo the p99 a sustained rate must stay under
 * @param capacityProbes capacity probes per trial after its main measurement; 0 = none
 * @param capacityProbe recorded time of one capacity probe (a settling time of half as long
 *     precedes it)
 * @param idleWindow the idle measurement after each trial's load; zero = none
 * @param controls whether the A/A and handicapped arms run beside the scenarios
 * @param remeasure whether a trial that was not usable is measured again (not in {@code --quick}: a
 *     smoke run makes no claim that more trials would support)
 * @param extend whether whole rounds more run while the budget has room, once every arm has its
 *     usable trials (only for the default {@code --repeats}: a number given is the number run)
 * @param budget the whole run's time: no trial starts that would end after it
 */
record LoadSearch(
    boolean calibrate,
    double targetCpuPercent,
    int calibrationProbes,
    Duration calibrationBudget,
    CalibrationRefinement refinement,
    Duration slo,
    int capacityProbes,
    Duration capacityProbe,
    Duration idleWindow,
    boolean controls,
    boolean remeasure,
    boolean extend,
    Duration budget) {

  /** Calibration answers within this many CPU% points of the target (of one server CPU each). */
  static final double TOLERANCE_POINTS_PER_CPU = 3;

  /** The capacity ramp's step while no failing rate is known. */
  static final double RAMP_FACTOR = 1.3;

  /** The first calibration probe's rate per server CPU, msg/s. */
  static final long START_RATE_PER_CPU = 20_000;

  /** Validates. */
  LoadSearch {
    Objects.requireNonNull(calibrationBudget, "calibrationBudget");
    Objects.requireNonNull(refinement, "refinement");
    Objects.requireNonNull(slo, "slo");
    Objects.requireNonNull(capacityProbe, "capacityProbe");
    Objects.requireNonNull(idleWindow, "idleWindow");
    Objects.requireNonNull(budget, "budget");
    if (!(targetCpuPercent > 0 && targetCpuPercent <= 100)) {
      throw new IllegalArgumentException(
          "--target-cpu: " + targetCpuPercent + " (expected: a number > 0 and <= 100)");
    }
    if (calibrationProbes < 1 || capacityProbes < 0) {
      throw new IllegalArgumentException(
          "probes: calibration "
              + calibrationProbes
              + ", capacity "
              + capacityProbes
              + " (expected: >= 1, >= 0)");
    }
  }

  /**
   * The plan of a run: the defaults (calibration in at most 8 probes and 60 s, then 2 rounds of the
   * refinement's ladder, a fresh gateway JVM a probe, and a third where their fit is not precise,
   * in at most 100 s; 1 s capacity probes, a 1 s idle window, trials not usable measured again) or,
   * if {@code quick}, the short ones of {@code --quick} (4 probes in 25 s and no refinement, 600
   * ms, 500 ms, each trial measured once).
   */
  static LoadSearch of(
      boolean quick,
      boolean calibrate,
      double targetCpuPercent,
      Duration slo,
      int probes,
      boolean controls,
      boolean extend,
      Duration budget) {
    return new LoadSearch(
        calibrate,
        targetCpuPercent,
        quick ? 4 : 8,
        Duration.ofSeconds(quick ? 25 : 60),
        new CalibrationRefinement(quick ? 0 : 2, Duration.ofSeconds(100).toNanos()),
        slo,
        probes,
        Duration.ofMillis(quick ? 600 : 1_000),
        Duration.ofMillis(quick ? 500 : 1_000),
        controls,
        !quick,
        extend && !quick,
        budget);
  }

  /** Expected wall time of one capacity probe: connections, settling, recording, drain, close. */
  Duration capacityProbeTime() {
    return capacityProbe.plus(capacityProbe.dividedBy(2)).plusMillis(700);
  }
}
