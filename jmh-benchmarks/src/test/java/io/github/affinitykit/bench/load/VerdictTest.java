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
    assertThat(v.low()).isLessThanOrEqualTo(v.ratio()).isGreaterThan(0.7);
    assertThat(v.sentence())
        .matches("pinned used 18% less CPU per message \\[\\d+–\\d+%\\] \\(n=3\\)");
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
    assertThat(v.sentence())
        .startsWith("pinned-spin sustained 20% more load with p99 under the SLO [");
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
    assertThat(v.sentence())
        .startsWith("taskset vs unpinned, p99: no difference within noise at n=3 (ratio ")
        .doesNotContain("lower")
        .doesNotContain("higher");
  }

  @Test
  void shouldSayItCannotSayWithOneTrial() {
    Verdict v = Verdict.of("pinned", Metric.CPU_PER_MESSAGE, new double[] {10}, new double[] {20});

    assertThat(v.outcome()).isEqualTo(Outcome.CANNOT_SAY);
    assertThat(v.ratio()).isNaN();
    assertThat(v.sentence())
        .isEqualTo(
            "pinned vs unpinned, CPU per message: cannot say at n=1/1 (needs at least 3 trials on each side)");
  }

  @Test
  void shouldSayItCannotSayWithTwoTrialsEvenWhenTheyFallApart() {
    Verdict v = Verdict.of("pinned", Metric.P99, new double[] {10, 11}, new double[] {20, 21});

    assertThat(v.outcome()).isEqualTo(Outcome.CANNOT_SAY);
    assertThat(v.sentence()).endsWith("cannot say at n=2/2 (needs at least 3 trials on each side)");
  }

  @Test
  void shouldGiveTheSameIntervalForTheSameTrials() {
    double[] a = {17.5, 19.9, 18.2};

    assertThat(Verdict.of("x", Metric.P99, a, UNPINNED))
        .isEqualTo(Verdict.of("x", Metric.P99, a, UNPINNED));
  }

  @Test
  void shouldLeaveOutNonFiniteValuesAndRefuseAZeroBaseline() {
    Verdict v = Verdict.of("x", Metric.CAPACITY, new double[] {1, 2, 3}, new double[] {0, 0, 0});
    Verdict gaps =
        Verdict.of("x", Metric.CAPACITY, new double[] {1, 2, Double.NaN}, new double[] {2, 2, 2});

    assertThat(v.outcome()).isEqualTo(Outcome.CANNOT_SAY);
    assertThat(v.sentence()).endsWith("cannot say (the baseline's mean is zero)");
    assertThat(gaps.outcome()).isEqualTo(Outcome.CANNOT_SAY);
    assertThat(gaps.n()).isEqualTo(2);
  }
}
