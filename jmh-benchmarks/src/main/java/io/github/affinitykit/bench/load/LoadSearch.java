package io.github.affinitykit.bench.load;

import java.time.Duration;
import java.util.Objects;

/**
 * The load test's two searches and its idle window: the calibration of the offered rate (the rate
 * at which the unpinned gateway uses {@code targetCpuPercent} of its server CPUs), each trial's
 * capacity ramp (the highest rate sustained with p99 under {@code slo}), and the idle window that
 * measures the CPU a server burns with its connections open and no traffic.
 *
 * <p>Thread safety: immutable.
 *
 * @param calibrate whether to calibrate (false: {@code --rate} fixed the rate)
 * @param targetCpuPercent % of the server CPUs the unpinned gateway should use (100 = all of them)
 * @param calibrationProbes at most this many calibration probes
 * @param calibrationBudget no calibration probe starts that would end after this long
 * @param calibrationProbe recorded time of one calibration probe (a warm-up of half as long
 *     precedes it)
 * @param slo the p99 a sustained rate must stay under
 * @param capacityProbes capacity probes per trial after its main measurement; 0 = none
 * @param capacityProbe recorded time of one capacity probe (a warm-up of half as long precedes it)
 * @param idleWindow the idle measurement after each trial's load; zero = none
 */
record LoadSearch(
    boolean calibrate,
    double targetCpuPercent,
    int calibrationProbes,
    Duration calibrationBudget,
    Duration calibrationProbe,
    Duration slo,
    int capacityProbes,
    Duration capacityProbe,
    Duration idleWindow) {

  /** Calibration answers within this many CPU% points of the target (of one server CPU each). */
  static final double TOLERANCE_POINTS_PER_CPU = 3;

  /** The capacity ramp's step while no failing rate is known. */
  static final double RAMP_FACTOR = 1.3;

  /** Validates. */
  LoadSearch {
    Objects.requireNonNull(calibrationBudget, "calibrationBudget");
    Objects.requireNonNull(calibrationProbe, "calibrationProbe");
    Objects.requireNonNull(slo, "slo");
    Objects.requireNonNull(capacityProbe, "capacityProbe");
    Objects.requireNonNull(idleWindow, "idleWindow");
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
   * The searches of a run: the defaults (about 40 s of calibration in at most 6 probes of 2 s,
   * capacity probes of 1 s, a 2 s idle window) or, if {@code quick}, the short ones of {@code
   * --quick} (12 s, 3 probes of 1 s, 600 ms, 1 s).
   */
  static LoadSearch of(
      boolean quick, boolean calibrate, double targetCpuPercent, Duration slo, int probes) {
    return new LoadSearch(
        calibrate,
        targetCpuPercent,
        quick ? 3 : 6,
        Duration.ofSeconds(quick ? 12 : 40),
        Duration.ofSeconds(quick ? 1 : 2),
        slo,
        probes,
        Duration.ofMillis(quick ? 600 : 1_000),
        Duration.ofSeconds(quick ? 1 : 2));
  }

  /** Expected wall time of one probe of {@code recorded}: start-up, warm-up, drain, close. */
  static Duration probeTime(Duration recorded) {
    return recorded.plus(recorded.dividedBy(2)).plusMillis(1_200);
  }
}
