package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.bench.load.SteadyState.Window;
import org.junit.jupiter.api.Test;

/**
 * The steady-state criterion on synthetic windows: a JVM still compiling, a noisy one, a warm one.
 */
class SteadyStateTest {
  private static final long SECOND = 1_000_000_000L;

  /** A 1 s window at 80,000 msg/s costing {@code usPerMessage}. */
  private static Window window(double usPerMessage) {
    return new Window(SECOND, Math.round(usPerMessage * 1_000 * 80_000), 80_000);
  }

  private static SteadyState fed(double... usPerMessage) {
    SteadyState s = new SteadyState();
    for (double v : usPerMessage) {
      s.add(window(v));
    }
    return s;
  }

  @Test
  void shouldBeSteadyWhenTheLastThreeWindowsLieWithinFivePercentOfTheirMean() {
    SteadyState s = fed(14.8, 11.9, 10.5, 10.49, 9.94, 10.49);

    assertThat(s.steady()).isTrue();
    assertThat(s.windows()).isEqualTo(6);
    assertThat(s.recent()).containsExactly(10.49, 9.94, 10.49);
    assertThat(s.cpuPercent())
        .isCloseTo(80_000 * 10.307 / 1e4, org.assertj.core.data.Offset.offset(0.1));
    assertThat(s.messagesPerSecond()).isEqualTo(80_000);
  }

  @Test
  void shouldNotBeSteadyWhileCpuPerMessageStillFalls() {
    assertThat(fed(14.8, 11.9, 10.5).steady()).as("still compiling").isFalse();
    assertThat(fed(10.48, 10.11, 7.66).steady()).as("a jump").isFalse();
  }

  @Test
  void shouldNeedThreeWindowsWithMessages() {
    assertThat(fed(10, 10).steady()).isFalse();
    SteadyState s = fed(10, 10);
    s.add(new Window(SECOND, 1_000_000, 0));

    assertThat(s.steady()).isFalse();
    assertThat(new SteadyState().cpuPercent()).isNaN();
  }

  @Test
  void shouldAllowForTheTickResolutionAtLowRates() {
    // 1,000 msg/s: one 10 ms tick is 10 CPU-us per message, so 20, 30, 20 cannot be told apart
    SteadyState s = new SteadyState();
    for (long ticks : new long[] {2, 3, 2}) {
      s.add(new Window(SECOND, ticks * SteadyState.TICK_NS, 1_000));
    }

    assertThat(s.steady()).isTrue();
  }
}
