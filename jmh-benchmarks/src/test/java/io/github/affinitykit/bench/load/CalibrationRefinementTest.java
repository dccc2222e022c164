package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.bench.load.Calibration.Point;
import io.github.affinitykit.bench.load.Calibration.Result;
import io.github.affinitykit.bench.load.CalibrationFit.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The calibration's refinement: its ladder, the probes it fits, its budget, on a fake clock. */
class CalibrationRefinementTest {
  private static final long SECOND = 1_000_000_000L;
  private final AtomicLong clock = new AtomicLong();
  private final List<Long> probed = new ArrayList<>();

  /** CPU% = 0.2 rate^0.55, warm probes of 4 s fake time. */
  private Calibration.Probe warm() {
    return rate -> {
      probed.add(rate);
      clock.addAndGet(4 * SECOND);
      return point(rate, 0.2 * Math.pow(rate, 0.55), true);
    };
  }

  private static Point point(long rate, double cpu, boolean steady) {
    return new Point(rate, cpu, steady, 3 * SECOND);
  }

  private static Result searched(Point best, Point... probes) {
    return new Result(80, 3, best, List.of(probes), "within 3 points");
  }

  @Test
  void shouldProbeTheLadderEachRoundInTheOtherOrderAndAnswerTheFitOfItsProbes()
      throws InterruptedException {
    Point first = point(20_000, 0.2 * Math.pow(20_000, 0.55), true);
    Point best = point(55_000, 79, true); // the long-warmed search JVM read less than fresh ones

    Result r =
        new CalibrationRefinement(2, 60 * SECOND)
            .refine(searched(best, first, best), warm(), clock::get);

    assertThat(probed).containsExactly(46_800L, 55_000L, 63_200L, 63_200L, 55_000L, 46_800L);
    assertThat(r.probes()).hasSize(8);
    assertThat(r.best()).isEqualTo(best);
    assertThat(r.fit().outcome()).isEqualTo(Outcome.FITTED);
    assertThat(r.fit().n()).isEqualTo(6); // the ladder's, on fresh JVMs: not the search's
    assertThat(r.rate()).isBetween(53_000L, 54_200L); // exact: 53,590
    assertThat(r.landed()).isTrue();
    assertThat(r.describe()).startsWith("calibrated: 53,").contains("fit of 6 probes");
  }

  @Test
  void shouldProbeOneRoundMoreAroundTheFitsAnswerWhenTheTargetLiesOutsideTheLadder()
      throws InterruptedException {
    // fresh JVMs read 10% less than the long-warmed search JVM: the target (65,300 msg/s) lies
    // above the ladder around the search's 55,000
    Point best = point(55_000, 80, true);
    Calibration.Probe fresh =
        rate -> {
          probed.add(rate);
          clock.addAndGet(4 * SECOND);
          return point(rate, 0.18 * Math.pow(rate, 0.55), true);
        };

    Result r =
        new CalibrationRefinement(2, 60 * SECOND).refine(searched(best, best), fresh, clock::get);

    assertThat(probed)
        .containsExactly(
            46_800L, 55_000L, 63_200L, 63_200L, 55_000L, 46_800L, 53_700L, 63_200L, 72_700L);
    assertThat(r.fit().outcome()).isEqualTo(Outcome.FITTED);
    assertThat(r.fit().n()).isEqualTo(9);
    assertThat(r.rate()).isBetween(64_700L, 65_900L); // exact: 65,300
    assertThat(CalibrationRefinement.precise(r.fit())).isTrue();
    assertThat(new CalibrationRefinement(2, SECOND).maxProbes()).isEqualTo(9);
  }

  @Test
  void shouldAskForARoundMoreOnlyOfAFitOutsideItsSpanOrWiderThanFivePercent() {
    assertThat(CalibrationRefinement.precise(fit(Outcome.FITTED, 100_000, 95_000, 105_000)))
        .isTrue();
    assertThat(CalibrationRefinement.precise(fit(Outcome.FITTED, 100_000, 92_500, 113_000)))
        .isFalse(); // ±10%
    assertThat(CalibrationRefinement.precise(fit(Outcome.OUTSIDE_SPAN, 104_000, 103_000, 105_000)))
        .isFalse();
    assertThat(CalibrationRefinement.precise(CalibrationFit.none(Outcome.TOO_FEW))).isFalse();
  }

  private static CalibrationFit fit(Outcome outcome, long rate, long low, long high) {
    return new CalibrationFit(outcome, 6, 0.5, rate, low, high);
  }

  @Test
  void shouldFitOnlyWarmKeptUpProbes() {
    List<Point> ladder =
        List.of(
            point(50_000, 75, true),
            point(50_000, 74, false), // not steady
            point(60_000, Double.POSITIVE_INFINITY, true), // did not keep up
            point(70_000, 85, true));

    assertThat(CalibrationRefinement.fitted(ladder))
        .extracting(Point::rate)
        .containsExactly(50_000L, 70_000L);
  }

  @Test
  void shouldNotRefineAnAnswerFarFromTheTargetOrWhenAskedForNoRounds() throws InterruptedException {
    Point far = point(55_000, 60, true);
    Result r =
        new CalibrationRefinement(2, 60 * SECOND).refine(searched(far, far), warm(), clock::get);
    Point near = point(55_000, 80, true);
    Result none =
        new CalibrationRefinement(0, 60 * SECOND).refine(searched(near, near), warm(), clock::get);

    assertThat(probed).isEmpty();
    assertThat(r.fit().outcome()).isEqualTo(Outcome.NOT_NEAR);
    assertThat(r.describe()).contains("more than twice its tolerance from the target");
    assertThat(r.rate()).isEqualTo(55_000);
    assertThat(none.fit().outcome()).isEqualTo(Outcome.NOT_RUN);
    assertThat(none.describe()).contains("no fit: the refinement did not run");
  }

  @Test
  void shouldStartNoProbeThatWouldEndAfterItsBudget() throws InterruptedException {
    Point best = point(55_000, 0.2 * Math.pow(55_000, 0.55), true);

    Result r =
        new CalibrationRefinement(2, 10 * SECOND).refine(searched(best, best), warm(), clock::get);

    assertThat(probed).hasSize(2); // 4 s each: a third would end at 12 s
    assertThat(r.fit().outcome()).isEqualTo(Outcome.TOO_FEW);
    assertThat(r.rate()).isEqualTo(55_000);
  }
}
