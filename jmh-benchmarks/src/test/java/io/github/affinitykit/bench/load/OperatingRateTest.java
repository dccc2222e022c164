package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.bench.load.Calibration.Point;
import io.github.affinitykit.bench.load.Calibration.Result;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each round's rate: the calibration's, re-centred on the usable unpinned trials before it. */
class OperatingRateTest {
  private static final OperatingRate SQUARE_ROOT = new OperatingRate(100_000, 80, 0.5);

  @Test
  void shouldRunTheFirstRoundAtTheCalibratedRate() {
    assertThat(SQUARE_ROOT.next(List.of())).isEqualTo(100_000);
    assertThat(new OperatingRate(93_417, 80, 0.5).next(List.of())).isEqualTo(93_417);
  }

  @Test
  void shouldMoveTheRateToWhereTheTrialsPutTheTarget() {
    // 88% at 100,000 msg/s with CPU% ∝ rate^0.5: each trial puts the target at 100,000 ×
    // (80/88)^2 = 82,645, and the calibration's 100,000 placed the first round only
    List<Trial> trials =
        List.of(
            Trials.at(Scenario.UNPINNED, 100_000, 88),
            Trials.at(Scenario.UNPINNED_AA, 100_000, 88));

    assertThat(SQUARE_ROOT.next(trials)).isEqualTo(82_600);
    assertThat(SQUARE_ROOT.describe(100_000, 82_600, trials))
        .isEqualTo(
            "rate re-centred 100,000 -> 82,600 msg/s: the 2 usable unpinned trials so far ran at a"
                + " median 88.0% CPU (100 = one CPU) against the 80% target, and CPU% \u221d"
                + " rate^0.50");
  }

  @Test
  void shouldTakeOnlyUsableTrialsOfAnUnpinnedGateway() {
    List<Trial> trials =
        List.of(
            Trials.at(Scenario.PINNED, 100_000, 60), // pinned reads less: that is what it measures
            Trials.at(Scenario.HANDICAPPED, 100_000, 97),
            Trials.disturbed(Trials.at(Scenario.UNPINNED, 100_000, 95)),
            Trials.cold(Trials.at(Scenario.UNPINNED_AA, 100_000, 95)));

    assertThat(SQUARE_ROOT.next(trials)).isEqualTo(100_000);
  }

  @Test
  void shouldKeepTheRateWithinAQuarterOfTheCalibratedOne() {
    assertThat(SQUARE_ROOT.next(List.of(Trials.at(Scenario.UNPINNED, 100_000, 200))))
        .isEqualTo(75_000);
    assertThat(SQUARE_ROOT.next(List.of(Trials.at(Scenario.UNPINNED, 100_000, 20))))
        .isEqualTo(125_000);
  }

  @Test
  void shouldBringTrialsBackToTheTargetWhenTheMachineDriftedSinceTheCalibration() {
    // the calibration answered 100,000 msg/s for 80%; by the trials every message costs 10% more
    // (CPU% = 88 at 100,000), and each trial scatters by ±3 points around the machine's curve
    double[] scatter = {3, -3, -3, 3, 2, -2, -1, 1, 3, -3};
    List<Trial> trials = new ArrayList<>();
    List<Long> rates = new ArrayList<>();
    for (int round = 0; round < 5; round++) {
      long rate = SQUARE_ROOT.next(trials);
      rates.add(rate);
      for (int arm = 0; arm < 2; arm++) {
        double cpu = 88 * Math.sqrt(rate / 100_000.0) + scatter[2 * round + arm];
        trials.add(Trials.at(arm == 0 ? Scenario.UNPINNED : Scenario.UNPINNED_AA, rate, cpu));
      }
    }

    // the machine's rate for 80% is 82,645: every round after the first runs within 1% of it
    assertThat(rates.get(0)).isEqualTo(100_000);
    assertThat(rates.subList(1, 5)).allSatisfy(r -> assertThat(r).isBetween(82_000L, 83_500L));
    assertThat(trials.subList(2, 10))
        .allSatisfy(t -> assertThat(t.serverCpuPercent()).isBetween(76.0, 84.0));
    double[] cpu = trials.stream().mapToDouble(Trial::serverCpuPercent).sorted().toArray();
    // 81.6; the calibrated rate in every round: 88 (91 and 85 in the first round, here)
    assertThat((cpu[4] + cpu[5]) / 2).isBetween(79.0, 82.5);
  }

  @Test
  void shouldTakeTheFitsExponentWithinItsBoundsAndOneWithoutAFit() {
    assertThat(OperatingRate.of(calibrated(0.55)).exponent()).isEqualTo(0.55, within());
    assertThat(OperatingRate.of(calibrated(0.1)).exponent()).isEqualTo(OperatingRate.MIN_EXPONENT);
    assertThat(OperatingRate.of(calibrated(1.4)).exponent()).isEqualTo(1);
    Result unfitted = new Result(80, 3, point(60_000, 79), List.of(), "within 3 points");
    OperatingRate r = OperatingRate.of(unfitted);
    assertThat(r.exponent()).isEqualTo(1);
    assertThat(r.calibrated()).isEqualTo(60_000);
    assertThat(r.targetPercent()).isEqualTo(80);
  }

  @Test
  void shouldRejectARateTargetOrExponentOutOfRangeNamingTheRule() {
    assertThatThrownBy(() -> new OperatingRate(0, 80, 0.5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "operating rate: 0 msg/s, target 80.0%, exponent 0.50 (expected: > 0, > 0, 0.3-1)");
    assertThatThrownBy(() -> new OperatingRate(1_000, 80, 0.2))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new OperatingRate(1_000, Double.NaN, 0.5))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** A calibration whose fit found the exponent {@code b}, at 60,000 msg/s. */
  private static Result calibrated(double b) {
    List<Point> ladder = new ArrayList<>();
    for (long rate : new long[] {51_000, 60_000, 69_000, 69_000, 60_000, 51_000}) {
      ladder.add(point(rate, 80 * Math.pow(rate / 60_000.0, b)));
    }
    return new Result(
        80,
        3,
        point(60_000, 80),
        ladder,
        "within 3 points",
        CalibrationFit.of(80, ladder.subList(0, 6)));
  }

  private static Point point(long rate, double cpu) {
    return new Point(rate, cpu, true, 3_000_000_000L);
  }

  private static org.assertj.core.data.Offset<Double> within() {
    return org.assertj.core.data.Offset.offset(1e-6);
  }
}
