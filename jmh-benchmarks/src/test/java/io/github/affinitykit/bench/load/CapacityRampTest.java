package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongToDoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * The capacity ramp's decisions on synthetic p99-vs-rate curves (a queue: p99 grows as 1 / (1 -
 * load)), and on a server whose p99 is over the SLO at the operating point; no timing.
 */
class CapacityRampTest {
  /** p99 µs of a server whose capacity is 50,000 msg/s; under a 5 ms SLO up to 40,000. */
  private static final LongToDoubleFunction P99_US =
      r -> r >= 50_000 ? 1e9 : 1_000 / (1 - r / 50_000.0);

  private static CapacityRamp.Probe slo(double sloUs) {
    return rate -> P99_US.applyAsDouble(rate) <= sloUs;
  }

  /**
   * A server whose p99 meets the SLO at {@code rate} msg/s and below; records what it is offered.
   */
  private static CapacityRamp.Probe meetsAtOrBelow(long rate, List<Long> probed) {
    return r -> {
      probed.add(r);
      return r <= rate;
    };
  }

  @Test
  void shouldRampUpThenBisectToTheHighestSustainedRate() throws InterruptedException {
    CapacityRamp ramp = new CapacityRamp(1.4, 4);

    CapacityRamp.Result r = ramp.search(new CapacityRamp.Step(20_000, true), slo(5_000));

    assertThat(r.rate()).isBetween(33_000L, 40_000L);
    assertThat(r.atLeast()).isFalse();
    assertThat(r.steps()).hasSize(5);
    assertThat(r.steps())
        .extracting(CapacityRamp.Step::rate)
        .startsWith(20_000L, 28_000L, 39_200L, 54_880L);
  }

  @Test
  void shouldRampDownWhenTheFirstRateFails() throws InterruptedException {
    CapacityRamp ramp = new CapacityRamp(1.4, 3);

    CapacityRamp.Result r = ramp.search(new CapacityRamp.Step(60_000, false), slo(5_000));

    assertThat(r.rate()).isBetween(30_000L, 40_000L);
    assertThat(r.describe()).doesNotStartWith(">=");
  }

  @Test
  void shouldSayAtLeastWhenNoProbeFailed() throws InterruptedException {
    CapacityRamp ramp = new CapacityRamp(1.25, 2);

    CapacityRamp.Result r = ramp.search(new CapacityRamp.Step(10_000, true), slo(5_000));

    assertThat(r.rate()).isEqualTo(15_625);
    assertThat(r.atLeast()).isTrue();
    assertThat(r.describe()).isEqualTo(">= 15,625");
  }

  @Test
  void shouldDescendByHalvesToTheRateThatMeetsTheSloWhenTheOperatingPointIsOverIt()
      throws InterruptedException {
    // quiet run 2: p99 10-35 ms at the operating point (58,500 msg/s); here it meets 5 ms only
    // at or below 12,000 msg/s, a fifth of the operating point
    List<Long> probed = new ArrayList<>();
    CapacityRamp.Probe probe = meetsAtOrBelow(12_000, probed);

    CapacityRamp.Result r =
        new CapacityRamp(1.3, 2).search(new CapacityRamp.Step(58_500, false), 0, probe, () -> true);

    assertThat(probed).startsWith(29_250L, 14_625L, 7_312L);
    assertThat(probed).hasSize(5); // the descent, then 2 probes bisecting [7,312, 14,625]
    assertThat(r.rate()).isBetween(7_312L, 12_000L);
    assertThat(r.outOfReach()).isFalse();
    assertThat(r.atLeast()).isFalse();
    assertThat(r.describe()).doesNotContain("below").doesNotContain("reach");
    assertThat(r.descentFrom(0)).isEqualTo(r.rate());
  }

  @Test
  void shouldStartTheDescentWhereAnEarlierTrialMetTheSlo() throws InterruptedException {
    List<Long> probed = new ArrayList<>();
    CapacityRamp.Probe probe = meetsAtOrBelow(12_000, probed);

    CapacityRamp.Result r =
        new CapacityRamp(1.3, 2)
            .search(new CapacityRamp.Step(58_500, false), 10_000, probe, () -> true);

    assertThat(probed).first().isEqualTo(10_000L); // then bisects [10,000, 58,500]
    assertThat(probed).hasSize(3);
    assertThat(r.rate()).isBetween(10_000L, 12_000L);
  }

  @Test
  void shouldSayTheSloIsOutOfReachWhenTheFloorFailsToo() throws InterruptedException {
    List<Long> probed = new ArrayList<>();

    CapacityRamp.Result r =
        new CapacityRamp(1.3, 2)
            .search(new CapacityRamp.Step(58_500, false), 0, meetsAtOrBelow(0, probed), () -> true);

    assertThat(probed).containsExactly(29_250L, 14_625L, 7_312L, 3_656L, 1_828L);
    assertThat(r.rate()).isZero();
    assertThat(r.outOfReach()).isTrue();
    assertThat(r.lowest()).isEqualTo(58_500 / CapacityRamp.FLOOR_DIVISOR);
    assertThat(r.describe()).isEqualTo("out of reach (p99 over the SLO down to 1,828)");
    // the arm's next trial starts at the floor: one probe, not five, to say it again
    assertThat(r.descentFrom(0)).isEqualTo(1_828);
  }

  @Test
  void shouldReportBelowTheLowestRateWhenTheBudgetEndsTheDescent() throws InterruptedException {
    int[] allowed = {2};

    CapacityRamp.Result r =
        new CapacityRamp(2, 2)
            .search(new CapacityRamp.Step(40_000, false), 0, rate -> false, () -> allowed[0]-- > 0);

    assertThat(r.steps())
        .extracting(CapacityRamp.Step::rate)
        .containsExactly(40_000L, 20_000L, 10_000L);
    assertThat(r.outOfReach()).isFalse();
    assertThat(r.describe()).isEqualTo("below the lowest rate probed (10,000)");
  }

  @Test
  void shouldStopProbingWhenTheBudgetSaysSo() throws InterruptedException {
    int[] allowed = {1};

    CapacityRamp.Result r =
        new CapacityRamp(1.4, 4)
            .search(new CapacityRamp.Step(20_000, true), 0, slo(5_000), () -> allowed[0]-- > 0);

    assertThat(r.steps()).extracting(CapacityRamp.Step::rate).containsExactly(20_000L, 28_000L);
    assertThat(r.atLeast()).isTrue();
  }

  @Test
  void shouldProbeNothingMoreWithZeroProbes() throws InterruptedException {
    CapacityRamp.Result r =
        new CapacityRamp(1.4, 0)
            .search(
                new CapacityRamp.Step(20_000, true),
                rate -> {
                  throw new AssertionError("probed " + rate);
                });

    assertThat(r.steps()).hasSize(1);
    assertThat(r.rate()).isEqualTo(20_000);
  }
}
