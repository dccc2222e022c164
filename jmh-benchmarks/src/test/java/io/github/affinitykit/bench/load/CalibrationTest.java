package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The calibration search on synthetic CPU%-vs-rate curves and a fake clock. */
class CalibrationTest {
  private static final long SECOND = 1_000_000_000L;
  private final AtomicLong clock = new AtomicLong();

  /** A probe that takes 3 s of fake time and answers {@code curve}. */
  private Calibration.Probe probe(java.util.function.LongToDoubleFunction curve) {
    return rate -> {
      clock.addAndGet(3 * SECOND);
      return curve.applyAsDouble(rate);
    };
  }

  @Test
  void shouldFindTheRateOfALinearCurveWithinToleranceInFewProbes() throws InterruptedException {
    Calibration c = new Calibration(80, 3, 20_000, 6, 60 * SECOND);

    Calibration.Result r = c.search(probe(rate -> 5 + rate * 0.002), clock::get);

    assertThat(r.best().cpuPercent()).isBetween(77.0, 83.0);
    assertThat(r.best().rate()).isBetween(36_000L, 39_000L);
    assertThat(r.probes()).hasSizeLessThanOrEqualTo(3);
    assertThat(r.stop()).isEqualTo("within 3 points");
    assertThat(r.describe()).startsWith("calibrated: 37,");
  }

  @Test
  void shouldBracketASaturatingCurve() throws InterruptedException {
    // CPU grows steeply, then flattens near 95%: a proportional step overshoots
    Calibration c = new Calibration(80, 2, 20_000, 8, 60 * SECOND);

    Calibration.Result r =
        c.search(probe(rate -> 95 * (1 - Math.exp(-rate / 25_000.0))), clock::get);

    assertThat(r.best().cpuPercent()).isBetween(78.0, 82.0);
    // exact: 25,000 * ln(95 / 15) = 46,142
    assertThat(r.best().rate()).isBetween(42_000L, 50_000L);
  }

  @Test
  void shouldStopAtTheProbeLimitOnACurveThatNeverReachesTheTarget() throws InterruptedException {
    Calibration c = new Calibration(80, 2, 20_000, 4, 600 * SECOND);

    Calibration.Result r = c.search(probe(rate -> 40), clock::get);

    assertThat(r.probes()).hasSizeLessThanOrEqualTo(4);
    assertThat(r.best().cpuPercent()).isEqualTo(40);
  }

  @Test
  void shouldStartNoProbeThatWouldEndAfterTheBudget() throws InterruptedException {
    Calibration c = new Calibration(80, 0.001, 20_000, 50, 10 * SECOND);

    Calibration.Result r = c.search(probe(rate -> Math.sqrt(rate)), clock::get);

    assertThat(clock.get()).isLessThanOrEqualTo(10 * SECOND);
    assertThat(r.probes()).hasSize(3);
    assertThat(r.stop()).isEqualTo("time budget 10 s");
  }

  @Test
  void shouldNeverProbeBelowTheMinimumRate() throws InterruptedException {
    Calibration c = new Calibration(80, 1, 1_000, 6, 600 * SECOND);

    Calibration.Result r = c.search(probe(rate -> 200 + rate), clock::get);

    assertThat(r.probes()).allSatisfy(p -> assertThat(p.rate()).isGreaterThanOrEqualTo(100));
    assertThat(r.stop()).isEqualTo("no better rate to try");
  }

  @Test
  void shouldStayBelowRatesTheServerCouldNotKeepUpWith() throws InterruptedException {
    // linear up to 30,000 msg/s (65% CPU), then the server falls behind
    Calibration c = new Calibration(80, 2, 20_000, 6, 600 * SECOND);

    Calibration.Result r =
        c.search(
            probe(rate -> rate > 30_000 ? Double.POSITIVE_INFINITY : 5 + rate * 0.002), clock::get);

    assertThat(r.best().rate()).isLessThanOrEqualTo(30_000L).isGreaterThan(25_000L);
    assertThat(r.best().cpuPercent()).isFinite();
    assertThat(r.probes()).anySatisfy(p -> assertThat(p.cpuPercent()).isInfinite());
  }

  @Test
  void shouldAnswerTheLowestRateWhenTheServerKeptUpWithNone() throws InterruptedException {
    Calibration c = new Calibration(80, 2, 20_000, 3, 600 * SECOND);

    Calibration.Result r = c.search(probe(rate -> Double.POSITIVE_INFINITY), clock::get);

    assertThat(r.probes())
        .extracting(Calibration.Point::rate)
        .containsExactly(20_000L, 10_000L, 5_000L);
    assertThat(r.best().rate()).isEqualTo(5_000);
    assertThat(r.describe()).contains("kept up with none");
  }
}
