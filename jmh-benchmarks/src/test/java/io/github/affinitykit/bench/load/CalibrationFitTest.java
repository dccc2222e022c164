package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.bench.load.Calibration.Point;
import io.github.affinitykit.bench.load.CalibrationFit.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.LongToDoubleFunction;
import org.junit.jupiter.api.Test;

/** The calibration's fit on synthetic probes: exact curves, seeded scatter, flat and short data. */
class CalibrationFitTest {
  /** CPU% = 0.2 rate^0.55: 80% at about 53,600 msg/s, as concave as a gateway's curve here. */
  private static final LongToDoubleFunction CURVE = r -> 0.2 * Math.pow(r, 0.55);

  private static final double TRUE_RATE = Math.pow(80 / 0.2, 1 / 0.55);

  private static List<Point> probes(LongToDoubleFunction cpu, long... rates) {
    List<Point> out = new ArrayList<>();
    for (long r : rates) {
      out.add(new Point(r, cpu.applyAsDouble(r), true, 3_000_000_000L));
    }
    return out;
  }

  @Test
  void shouldSolveAnExactPowerLawForTheTargetWithANarrowInterval() {
    CalibrationFit f = CalibrationFit.of(80, probes(CURVE, 45_000, 52_000, 60_000, 45_000, 60_000));

    assertThat(f.outcome()).isEqualTo(Outcome.FITTED);
    assertThat(f.exponent()).isCloseTo(0.55, org.assertj.core.data.Offset.offset(1e-9));
    assertThat((double) f.rate())
        .isCloseTo(TRUE_RATE, org.assertj.core.data.Percentage.withPercentage(0.6));
    assertThat(f.low()).isLessThanOrEqualTo(f.rate());
    assertThat(f.high()).isGreaterThanOrEqualTo(f.rate());
    assertThat(f.describe()).startsWith("fit of 5 probes: 53,").contains("rate^0.55");
  }

  @Test
  void shouldFixTheRateFarBetterThanOneProbeAndCoverTheTrueRateWithItsInterval() {
    // 4% scatter of one probe's CPU% (what a quiet 2-CPU machine shows at 80%), 400 seeded runs
    Random random = new Random(20261127);
    double[] single = new double[400];
    double[] fitted = new double[400];
    int covered = 0;
    for (int run = 0; run < single.length; run++) {
      LongToDoubleFunction noisy =
          r -> CURVE.applyAsDouble(r) * Math.exp(0.04 * random.nextGaussian());
      // a search that stops at the one probe reading 80%: off by its scatter over the exponent
      single[run] = Math.log(TRUE_RATE) - 0.04 * random.nextGaussian() / 0.55;
      long c =
          Math.round(TRUE_RATE * Math.exp(0.05 * random.nextGaussian())); // the search's answer
      CalibrationFit f =
          CalibrationFit.of(
              80,
              probes(
                  noisy,
                  c,
                  Math.round(c * 0.85),
                  Math.round(c * 1.15),
                  Math.round(c * 1.15),
                  c,
                  Math.round(c * 0.85),
                  Math.round(c * 1.3)));
      assertThat(f.usable()).as("run %d: %s", run, f).isTrue();
      fitted[run] = Math.log(f.rate());
      if (f.low() <= TRUE_RATE && TRUE_RATE <= f.high()) {
        covered++;
      }
    }
    assertThat(sd(fitted)).isLessThan(sd(single) / 2);
    assertThat(sd(fitted)).isLessThan(0.05); // two runs then agree within ±10%, 19 times in 20
    assertThat(covered).isGreaterThanOrEqualTo(360); // a 95% interval: at least 90% here
  }

  @Test
  void shouldSayCpuDidNotRiseWhenTheProbesAreFlat() {
    Random random = new Random(7);
    CalibrationFit f =
        CalibrationFit.of(
            80,
            probes(
                r -> 78 * Math.exp(0.04 * random.nextGaussian()),
                40_000,
                46_000,
                53_000,
                40_000,
                46_000,
                53_000));

    assertThat(f.outcome()).isEqualTo(Outcome.NO_RISE);
    assertThat(f.usable()).isFalse();
    assertThat(f.describe()).contains("did not rise").contains("the search's probe");
  }

  @Test
  void shouldAnswerTheNearestProbedRateWhenTheTargetLiesOutsideTheSpan() {
    CalibrationFit f = CalibrationFit.of(80, probes(CURVE, 20_000, 25_000, 30_000, 35_000));

    assertThat(f.outcome()).isEqualTo(Outcome.OUTSIDE_SPAN);
    assertThat(f.rate()).isEqualTo(35_000);
    assertThat(f.describe()).contains("outside the probed rates");
  }

  @Test
  void shouldNotFitTooFewProbesOrProbesAtOneRate() {
    assertThat(CalibrationFit.of(80, probes(CURVE, 40_000, 50_000, 60_000)).outcome())
        .isEqualTo(Outcome.TOO_FEW);
    assertThat(CalibrationFit.of(80, probes(CURVE, 50_000, 50_000, 50_000, 50_000)).outcome())
        .isEqualTo(Outcome.TOO_FEW);
    assertThat(CalibrationFit.of(80, List.of()).describe()).contains("0 usable probes");
  }

  private static double sd(double[] v) {
    double m = 0;
    for (double d : v) {
      m += d / v.length;
    }
    double s = 0;
    for (double d : v) {
      s += (d - m) * (d - m);
    }
    return Math.sqrt(s / (v.length - 1));
  }
}
