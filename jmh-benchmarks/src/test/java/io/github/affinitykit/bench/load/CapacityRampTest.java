package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.LongToDoubleFunction;
import org.junit.jupiter.api.Test;

/** The capacity ramp on a synthetic p99-vs-rate curve (a queue: p99 grows as 1 / (1 - load)). */
class CapacityRampTest {
  /** p99 µs of a server whose capacity is 50,000 msg/s; under a 5 ms SLO up to 40,000. */
  private static final LongToDoubleFunction P99_US =
      r -> r >= 50_000 ? 1e9 : 1_000 / (1 - r / 50_000.0);

  private static CapacityRamp.Probe slo(double sloUs) {
    return rate -> P99_US.applyAsDouble(rate) <= sloUs;
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
  void shouldReportBelowTheLowestRateWhenNothingPasses() throws InterruptedException {
    CapacityRamp ramp = new CapacityRamp(2, 2);

    CapacityRamp.Result r = ramp.search(new CapacityRamp.Step(1_000, false), rate -> false);

    assertThat(r.rate()).isZero();
    assertThat(r.describe()).isEqualTo("below the lowest rate probed (250)");
    assertThat(r.lowest()).isEqualTo(250);
  }

  @Test
  void shouldStopProbingWhenTheBudgetSaysSo() throws InterruptedException {
    int[] allowed = {1};

    CapacityRamp.Result r =
        new CapacityRamp(1.4, 4)
            .search(new CapacityRamp.Step(20_000, true), slo(5_000), () -> allowed[0]-- > 0);

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
