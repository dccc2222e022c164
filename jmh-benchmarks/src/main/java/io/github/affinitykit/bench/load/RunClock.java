package io.github.affinitykit.bench.load;

import java.time.Duration;

/**
 * The run's time left, for progress lines: during calibration, what is left of its expected time
 * plus every trial at the expected pace; during the trials, the trials left at the measured pace.
 *
 * <p>Thread safety: one controlling thread.
 */
final class RunClock {
  private final LoadTestOptions o;
  private final int trials;
  private final long began = System.nanoTime();
  private long trialsBegan = -1;

  RunClock(LoadTestOptions o, int trials) {
    this.o = o;
    this.trials = trials;
  }

  int trials() {
    return trials;
  }

  /** The calibration is over: the trials start now. */
  void trialsStart() {
    trialsBegan = System.nanoTime();
  }

  /** Time left with {@code done} trials done. */
  Duration left(int done) {
    Duration perTrial = o.expectedPerTrial();
    if (trialsBegan < 0) {
      Duration calibration = o.expectedCalibration().minusNanos(System.nanoTime() - began);
      return (calibration.isNegative() ? Duration.ZERO : calibration)
          .plus(perTrial.multipliedBy(trials));
    }
    if (done > 0) {
      perTrial = Duration.ofNanos((System.nanoTime() - trialsBegan) / done);
    }
    return perTrial.multipliedBy(trials - done);
  }
}
