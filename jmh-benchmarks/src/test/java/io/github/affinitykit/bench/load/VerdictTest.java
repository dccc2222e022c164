package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.bench.load.Verdict.Metric;
import io.github.affinitykit.bench.load.Verdict.Outcome;
import org.junit.jupiter.api.Test;

/** The verdict's statistics on synthetic trials: a claim only where the interval supports one. */
class VerdictTest {
  private static final double[] UNPINNED = {21.4, 21.9, 21.1};

  @Test
  void shouldClaimLessCpuWhenTheTrialsClearlyDiffer() {
    Verdict v =
        Verdict.of("pinned", Metric.CPU_PER_MESSAGE, new double[] {17.5, 17.9, 17.2}, UNPINNED);

    assertThat(v.outcome()).isEqualTo(Outcome.LOWER);
    assertThat(v.high()).isLessThan(1);
    assertThat(v.low()).isLessThan(v.ratio()).isGreaterThan(0.7);
    assertThat(v.ratio()).isCloseTo(0.8172, org.assertj.core.data.Offset.offset(0.001));
    assertThat(v.clause()).matches("used 18% less CPU per message \\[\\d+–\\d+%\\]");
    assertThat(v.differs()).isTrue();
  }

  @Test
  void shouldClaimMoreCapacityWhenTheTrialsClearlyDiffer() {
    Verdict v =
        Verdict.of(
            "pinned-spin",
            Metric.CAPACITY,
            new double[] {48_000, 49_000, 47_000},
            new double[] {40_000, 41_000, 39_000});

    assertThat(v.outcome()).isEqualTo(Outcome.HIGHER);
    assertThat(v.low()).isGreaterThan(1);
    assertThat(v.clause()).startsWith("sustained 20% more load [");
  }

  @Test
  void shouldMakeNoClaimWhenTheTrialsOverlap() {
    Verdict v =
        Verdict.of(
            "taskset",
            Metric.P99,
            new double[] {2234, 4100, 1655},
            new double[] {3453, 1900, 5460});

    assertThat(v.outcome()).isEqualTo(Outcome.NO_DIFFERENCE);
    assertThat(v.low()).isLessThan(1);
    assertThat(v.high()).isGreaterThan(1);
    assertThat(v.clause()).startsWith("had the same p99 within noise (×0.");
    assertThat(v.differs()).isFalse();
  }

  @Test
  void shouldWidenTheIntervalWithTheConfidence() {
    double[] a = {17.5, 19.9, 18.2};

    Verdict claim = Verdict.of("x", Metric.P99, a, UNPINNED);
    Verdict strict = Verdict.of("x", Metric.P99, a, UNPINNED, Controls.AA_CONFIDENCE);

    assertThat(strict.ratio()).isEqualTo(claim.ratio());
    assertThat(strict.low()).isLessThan(claim.low());
    assertThat(strict.high()).isGreaterThan(claim.high());
  }

  @Test
  void shouldSayItCannotSayBelowThreeTrialsASide() {
    Verdict one =
        Verdict.of("pinned", Metric.CPU_PER_MESSAGE, new double[] {10}, new double[] {20});
    Verdict two =
        Verdict.of("pinned", Metric.P99, new double[] {10, 11}, new double[] {20, 21, 22});

    assertThat(one.outcome()).isEqualTo(Outcome.UNJUDGED);
    assertThat(one.ratio()).isNaN();
    assertThat(one.clause())
        .isEqualTo("CPU per message: cannot say (1 and 1 usable trials, needs 3 a side)");
    assertThat(two.outcome()).isEqualTo(Outcome.UNJUDGED);
    assertThat(two.reason()).isEqualTo("2 and 3 usable trials, needs 3 a side");
  }

  @Test
  void shouldGiveTheSameIntervalForTheSameTrials() {
    double[] a = {17.5, 19.9, 18.2};

    assertThat(Verdict.of("x", Metric.P99, a, UNPINNED))
        .isEqualTo(Verdict.of("x", Metric.P99, a, UNPINNED));
  }

  @Test
  void shouldLeaveOutValuesThatAreNotFiniteAndPositive() {
    Verdict zeros =
        Verdict.of("x", Metric.CAPACITY, new double[] {1, 2, 3}, new double[] {0, 0, 0});
    Verdict gaps =
        Verdict.of("x", Metric.CAPACITY, new double[] {1, 2, Double.NaN}, new double[] {2, 2, 2});

    assertThat(zeros.outcome()).isEqualTo(Outcome.UNJUDGED);
    assertThat(zeros.baselineN()).isZero();
    assertThat(gaps.outcome()).isEqualTo(Outcome.UNJUDGED);
    assertThat(gaps.n()).isEqualTo(2);
  }

  @Test
  void shouldClaimADifferenceBetweenTrialsThatDoNotVary() {
    // capacity ramps give identical rates: no spread on either side, the ratio is exact
    Verdict v =
        Verdict.of(
            "x",
            Metric.CAPACITY,
            new double[] {50_000, 50_000, 50_000},
            new double[] {65_000, 65_000, 65_000});

    assertThat(v.outcome()).isEqualTo(Outcome.LOWER);
    assertThat(v.low()).isEqualTo(v.high()).isEqualTo(v.ratio());
  }
}
