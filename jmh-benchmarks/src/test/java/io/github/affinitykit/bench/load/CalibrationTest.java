package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.bench.load.Calibration.Point;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongToDoubleFunction;
import org.junit.jupiter.api.Test;

/** The calibration search on synthetic CPU%-vs-rate curves and a fake clock. */
class CalibrationTest {
  private static final long SECOND = 1_000_000_000L;
  private final AtomicLong clock = new AtomicLong();
  private final List<Long> probed = new ArrayList<>();

  /** A warm server whose probes take 4 s of fake time and answer {@code curve}. */
  private Calibration.Probe warm(LongToDoubleFunction curve) {
    return rate -> {
      probed.add(rate);
      clock.addAndGet(4 * SECOND);
      return new Point(rate, curve.applyAsDouble(rate), true, 3 * SECOND);
    };
  }

  @Test
  void shouldFindTheRateOfALinearCurveWithinToleranceInFewProbes() throws InterruptedException {
    Calibration c = new Calibration(80, 3, 20_000, 8, 60 * SECOND);

    Calibration.Result r = c.search(warm(rate -> 5 + rate * 0.002), clock::get);

    assertThat(r.best().cpuPercent()).isBetween(77.0, 83.0);
    assertThat(r.best().rate()).isBetween(36_000L, 39_000L);
    assertThat(r.probes()).hasSizeLessThanOrEqualTo(3);
    assertThat(r.stop()).isEqualTo("within 3 points");
    assertThat(r.landed()).isTrue();
    assertThat(r.describe()).startsWith("calibrated: 3").contains("in steady state");
  }

  @Test
  void shouldLandOnAConcaveCurveWithFlatStretches() throws InterruptedException {
    // CPU% per message falls as batching sets in: steep at first, flat from 40,000 to 60,000
    LongToDoubleFunction concave =
        r ->
            r < 40_000
                ? 10 + r * 0.0011
                : r < 60_000 ? 54 + (r - 40_000) * 0.0001 : 56 + (r - 60_000) * 0.0004;
    Calibration c = new Calibration(80, 3, 20_000, 8, 600 * SECOND);

    Calibration.Result r = c.search(warm(concave), clock::get);

    assertThat(r.landed()).as("%s", r).isTrue();
    assertThat(r.best().rate()).isBetween(112_000L, 128_000L); // exact: 120,000
  }

  @Test
  void shouldBracketASaturatingCurve() throws InterruptedException {
    Calibration c = new Calibration(80, 2, 20_000, 8, 600 * SECOND);

    Calibration.Result r =
        c.search(warm(rate -> 95 * (1 - Math.exp(-rate / 25_000.0))), clock::get);

    assertThat(r.best().cpuPercent()).isBetween(78.0, 82.0);
    assertThat(r.best().rate()).isBetween(42_000L, 50_000L); // exact: 46,142
  }

  @Test
  void shouldProbeAgainARateWhoseServerWasNotWarmAndNotSteerByIt() throws InterruptedException {
    // the first run: a cold JVM makes 10,000 msg/s look like 55% CPU, when warm it is 20%
    Calibration c = new Calibration(80, 3, 10_000, 8, 600 * SECOND);
    Calibration.Probe coldFirst =
        rate -> {
          probed.add(rate);
          boolean cold = probed.size() == 1;
          return new Point(rate, cold ? 55 : rate * 0.002, !cold, 15 * SECOND);
        };

    Calibration.Result r = c.search(coldFirst, clock::get);

    assertThat(probed).startsWith(10_000L, 10_000L);
    assertThat(r.probes().get(0).steady()).isFalse();
    assertThat(r.best().steady()).isTrue();
    assertThat(r.best().rate()).isBetween(38_500L, 41_500L);
    assertThat(r.landed()).isTrue();
  }

  @Test
  void shouldStopAtTheProbeLimitOnACurveThatNeverReachesTheTarget() throws InterruptedException {
    Calibration c = new Calibration(80, 2, 20_000, 4, 600 * SECOND);

    Calibration.Result r = c.search(warm(rate -> 40), clock::get);

    assertThat(r.probes()).hasSize(4);
    assertThat(probed).containsExactly(20_000L, 40_000L, 80_000L, 160_000L);
    assertThat(r.stop()).startsWith("probe limit 4");
    assertThat(r.landed()).isFalse();
  }

  @Test
  void shouldStartNoProbeThatWouldEndAfterTheBudget() throws InterruptedException {
    Calibration c = new Calibration(80, 0.001, 20_000, 50, 10 * SECOND);

    Calibration.Result r = c.search(warm(rate -> Math.sqrt(rate)), clock::get);

    assertThat(clock.get()).isLessThanOrEqualTo(10 * SECOND);
    assertThat(r.probes()).hasSize(2);
    assertThat(r.stop()).startsWith("time budget 10 s");
  }

  @Test
  void shouldStayBelowRatesTheServerCouldNotKeepUpWith() throws InterruptedException {
    // linear up to 30,000 msg/s (65% CPU), then the server falls behind: 80% is out of reach
    Calibration c = new Calibration(80, 2, 20_000, 8, 600 * SECOND);

    Calibration.Result r =
        c.search(
            warm(rate -> rate > 30_000 ? Double.POSITIVE_INFINITY : 5 + rate * 0.002), clock::get);

    assertThat(r.best().rate()).isLessThanOrEqualTo(30_000L).isGreaterThan(27_000L);
    assertThat(r.best().keptUp()).isTrue();
    assertThat(r.probes()).anySatisfy(p -> assertThat(p.keptUp()).isFalse());
    assertThat(r.stop()).contains("resolution");
  }

  @Test
  void shouldAnswerTheLowestRateWhenTheServerKeptUpWithNone() throws InterruptedException {
    Calibration c = new Calibration(80, 2, 20_000, 3, 600 * SECOND);

    Calibration.Result r = c.search(warm(rate -> Double.POSITIVE_INFINITY), clock::get);

    assertThat(probed).containsExactly(20_000L, 10_000L, 5_000L);
    assertThat(r.best().rate()).isEqualTo(5_000);
    assertThat(r.describe()).contains("kept up with none");
  }

  @Test
  void shouldMeasureAContradictionAgainOnceThenStopSayingSo() throws InterruptedException {
    // a curve the search cannot trust: more load, less CPU, however often it is measured
    Calibration c = new Calibration(80, 2, 20_000, 8, 600 * SECOND);

    Calibration.Result r = c.search(warm(rate -> rate <= 20_000 ? 60 : 40), clock::get);

    assertThat(probed).containsExactly(20_000L, 26_700L, 20_000L);
    assertThat(r.stop()).startsWith("CPU% did not rise with the rate (20,000 msg/s -> 60.0%");
    assertThat(r.landed()).isFalse();
  }

  @Test
  void shouldGoOnWhenTheContradictionWasNoise() throws InterruptedException {
    // the first probe read 45% where the server uses 20%: measured again, the search lands
    Calibration c = new Calibration(80, 3, 20_000, 8, 600 * SECOND);
    Calibration.Probe noisyFirst =
        rate -> {
          probed.add(rate);
          return new Point(rate, probed.size() == 1 ? 45 : 5 + rate * 0.00075, true, SECOND);
        };

    Calibration.Result r = c.search(noisyFirst, clock::get);

    assertThat(probed).startsWith(20_000L, 35_600L, 20_000L);
    assertThat(r.landed()).as("%s", r).isTrue();
    assertThat(r.best().rate()).isBetween(96_000L, 104_000L); // exact: 100,000
  }

  @Test
  void shouldRoundRatesToThreeSignificantDigits() {
    assertThat(Steering.round(123_456)).isEqualTo(123_000);
    assertThat(Steering.round(98_765)).isEqualTo(98_800);
    assertThat(Steering.round(456.7)).isEqualTo(457);
  }
}
