package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The run's budget on a fake clock: no trial starts that would end after it. */
class RunClockTest {
  private final AtomicLong now = new AtomicLong();

  @Test
  void shouldStartNoTrialThatWouldEndAfterTheBudgetWithRoomForTheReport() {
    RunClock c = new RunClock(Duration.ofSeconds(100), Duration.ofSeconds(20), now::get);

    now.set(Duration.ofSeconds(77).toNanos());
    assertThat(c.fits()).as("20 s + 3 s fit in 23 s").isTrue();
    now.set(Duration.ofSeconds(78).toNanos());
    assertThat(c.fits()).as("23 s do not fit in 22 s").isFalse();
    assertThat(c.deadlineNs()).isEqualTo(Duration.ofSeconds(97).toNanos());
  }

  @Test
  void shouldJudgeTheNextTrialByTheLongestSoFar() {
    RunClock c = new RunClock(Duration.ofSeconds(100), Duration.ofSeconds(10), now::get);
    c.trialTook(Duration.ofSeconds(10).toNanos());
    c.trialTook(Duration.ofSeconds(30).toNanos());
    now.set(Duration.ofSeconds(70).toNanos());

    assertThat(c.perTrial()).hasSeconds(20);
    assertThat(c.fits()).as("30 s + 3 s do not fit in 30 s").isFalse();
  }

  @Test
  void shouldFitAWholeRoundOnlyWhenEveryTrialOfItAsLongAsTheLongestEndsWithinTheBudget() {
    RunClock c = new RunClock(Duration.ofSeconds(100), Duration.ofSeconds(10), now::get);
    assertThat(c.fitsRound(3)).as("no trial measured yet").isFalse();
    c.trialTook(Duration.ofSeconds(10).toNanos());
    c.trialTook(Duration.ofSeconds(20).toNanos());

    now.set(Duration.ofSeconds(37).toNanos());
    assertThat(c.fitsRound(3)).as("3 x 20 s + 3 s fit in 63 s").isTrue();
    now.set(Duration.ofSeconds(38).toNanos());
    assertThat(c.fitsRound(3)).as("63 s do not fit in 62 s").isFalse();
  }

  @Test
  void shouldPaceByTheTrialsMeasured() {
    RunClock c = new RunClock(Duration.ofMinutes(8), Duration.ofSeconds(20), now::get);
    c.trialTook(Duration.ofSeconds(10).toNanos());
    c.trialTook(Duration.ofSeconds(14).toNanos());
    now.set(Duration.ofSeconds(60).toNanos());

    assertThat(c.perTrial()).hasSeconds(12);
    assertThat(c.budgetLeft()).hasSeconds(420);
    assertThat(c.left(5)).isEqualTo("~1m00s to go, 7m00s of the 8m00s budget left");
    now.set(Duration.ofMinutes(9).toNanos());
    assertThat(c.budgetLeft()).isZero();
  }
}
