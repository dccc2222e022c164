package io.github.affinitykit.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.SelectStrategy;
import io.netty.util.IntSupplier;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Each loop's strategy and the spin bound, on a fake clock and a fake poll: deterministic, no
 * threads, no timing.
 */
class WaitSelectStrategyTest {
  private final AtomicLong clock = new AtomicLong();
  private final AtomicInteger polls = new AtomicInteger();
  private int ready;
  private final IntSupplier poll =
      () -> {
        polls.incrementAndGet();
        return ready;
      };

  private SelectStrategy strategy(WaitPolicy mode, SpinLimit limit) {
    return WaitSelectStrategyFactory.of(mode, limit, clock::get).newSelectStrategy();
  }

  @Test
  void shouldBlockWithoutPollingWhenBlockingAndNoTaskWaits() throws Exception {
    SelectStrategy s = strategy(WaitPolicy.BLOCK, SpinLimit.DEFAULT);

    assertThat(s.calculateStrategy(poll, false)).isEqualTo(SelectStrategy.SELECT);
    assertThat(polls).hasValue(0);
    ready = 3;
    assertThat(s.calculateStrategy(poll, true)).isEqualTo(3); // tasks wait: poll, as Netty does
  }

  @Test
  void shouldBlockAfterExactlyTheLimitOfEmptyPolls() throws Exception {
    SelectStrategy s = strategy(WaitPolicy.SPIN_THEN_BLOCK, SpinLimit.ofPolls(3));

    for (int i = 0; i < 3; i++) {
      assertThat(s.calculateStrategy(poll, false)).isZero();
    }
    assertThat(s.calculateStrategy(poll, false)).isEqualTo(SelectStrategy.SELECT);
    assertThat(polls).hasValue(4);
    assertThat(s.calculateStrategy(poll, false)).isZero(); // after the block: a fresh spin
  }

  @Test
  void shouldStartAFreshSpinAfterEveryEventOrTask() throws Exception {
    SelectStrategy s = strategy(WaitPolicy.SPIN_THEN_BLOCK, SpinLimit.ofPolls(2));

    assertThat(s.calculateStrategy(poll, false)).isZero();
    assertThat(s.calculateStrategy(poll, false)).isZero();
    ready = 5;
    assertThat(s.calculateStrategy(poll, false)).isEqualTo(5);
    ready = 0;
    assertThat(s.calculateStrategy(poll, false)).isZero();
    assertThat(s.calculateStrategy(poll, true)).isZero(); // a task: work, the spin restarts
    assertThat(s.calculateStrategy(poll, false)).isZero();
    assertThat(s.calculateStrategy(poll, false)).isZero();
    assertThat(s.calculateStrategy(poll, false)).isEqualTo(SelectStrategy.SELECT);
  }

  @Test
  void shouldBlockOnceTheSpinTimeHasPassedSinceTheLastWork() throws Exception {
    SelectStrategy s =
        strategy(WaitPolicy.SPIN_THEN_BLOCK, SpinLimit.ofTime(Duration.ofNanos(50_000)));
    clock.set(1_000_000);

    assertThat(s.calculateStrategy(poll, false)).isZero(); // the spin starts now
    clock.addAndGet(49_999);
    assertThat(s.calculateStrategy(poll, false)).isZero();
    clock.addAndGet(1);
    assertThat(s.calculateStrategy(poll, false)).isEqualTo(SelectStrategy.SELECT);
  }

  @Test
  void shouldNeverBlockWhenBusyPolling() throws Exception {
    SelectStrategy s = strategy(WaitPolicy.BUSY_POLL, SpinLimit.ofPolls(1));

    for (int i = 0; i < 10_000; i++) {
      clock.addAndGet(1_000_000_000L);
      assertThat(s.calculateStrategy(poll, false)).isZero();
    }
    assertThat(polls).hasValue(10_000);
  }

  @Test
  void shouldSwitchModesAndRefuseAuto() throws Exception {
    WaitSelectStrategyFactory f =
        WaitSelectStrategyFactory.of(WaitPolicy.AUTO, SpinLimit.ofPolls(1), clock::get);
    SelectStrategy first = f.newSelectStrategy();
    f.newSelectStrategy();

    assertThat(f.size()).isEqualTo(2);
    assertThat(f.mode(0)).isEqualTo(WaitPolicy.BLOCK); // AUTO blocks until decided
    f.mode(1, WaitPolicy.BUSY_POLL);
    assertThat(f.mode(1)).isEqualTo(WaitPolicy.BUSY_POLL);
    assertThat(first.calculateStrategy(poll, false)).isEqualTo(SelectStrategy.SELECT);
    assertThatThrownBy(() -> f.mode(0, WaitPolicy.AUTO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("mode: AUTO (expected: a concrete policy; decide first)");
  }

  @Test
  void shouldParsePoliciesAndLimitsAndNameTheRuleOtherwise() {
    assertThat(WaitPolicy.parse("spin-then-block")).isEqualTo(WaitPolicy.SPIN_THEN_BLOCK);
    assertThat(WaitPolicy.parse("BUSY_POLL")).isEqualTo(WaitPolicy.BUSY_POLL);
    assertThat(WaitPolicy.SPIN_THEN_BLOCK.cliName()).isEqualTo("spin-then-block");
    assertThatThrownBy(() -> WaitPolicy.parse("spin"))
        .hasMessage("wait policy: spin (expected: block, spin-then-block, busy-poll or auto)");
    assertThat(SpinLimit.parse("50us")).isEqualTo(SpinLimit.DEFAULT);
    assertThat(SpinLimit.parse("2ms").amount()).isEqualTo(2_000_000);
    assertThat(SpinLimit.parse("200polls")).isEqualTo(SpinLimit.ofPolls(200));
    assertThat(SpinLimit.parse("1s")).hasToString("1000000us");
    assertThat(SpinLimit.parse("7ns")).hasToString("7ns");
    for (String bad : new String[] {"", "0us", "-5us", "50", "5 minutes", "99999999999999s"}) {
      assertThatThrownBy(() -> SpinLimit.parse(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "spin limit: " + bad + " (expected: a positive integer with ns, us, ms, s or polls)");
    }
  }
}
