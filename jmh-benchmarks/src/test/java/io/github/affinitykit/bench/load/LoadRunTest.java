package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LoadRunTest {
  private static final long START_NS = 1_000;

  /** Warm-up 1 s, recorded window 2 s: the window is [START + 1 s, START + 3 s). */
  private final LoadRun run =
      new LoadRun(
          new LoadConfig(
              URI.create("ws://127.0.0.1:1/ws"),
              1,
              16,
              Duration.ofSeconds(1),
              Duration.ofSeconds(2),
              0,
              1,
              1),
          START_NS);

  @Test
  void shouldCountOnlyMessagesIntendedInsideTheWindowWhenSummingTheResult() {
    long inside = run.recordFromNs();
    long warmup = START_NS;
    long after = run.stopNs();
    run.sent(warmup);
    run.sent(inside);
    run.sent(after);
    run.echoed(warmup, warmup + 5, true);
    run.echoed(inside, inside + 7_000, true);

    LoadResult r = run.result();

    assertThat(r.sent()).isEqualTo(1);
    assertThat(r.received()).isEqualTo(1);
    assertThat(r.lost()).as("sent at any time, never echoed").isEqualTo(1);
    assertThat(r.latencyNs().getTotalCount()).isEqualTo(1);
    assertThat(r.latencyNs().getMaxValue()).isBetween(6_990L, 7_010L);
    assertThat(r.recordedNs()).isEqualTo(Duration.ofSeconds(2).toNanos());
  }

  @Test
  void shouldCountOutOfOrderEchoesAndFailuresWhenTheyHappen() {
    run.sent(run.recordFromNs());
    run.sent(run.recordFromNs());
    run.echoed(run.recordFromNs(), run.recordFromNs(), false);
    run.echoed(run.recordFromNs(), run.recordFromNs(), true);
    run.failed(1);
    run.failed(3);

    LoadResult r = run.result();

    assertThat(r.outOfOrder()).isEqualTo(1);
    assertThat(r.errors()).isEqualTo(4);
    assertThat(r.lost()).isZero();
  }

  @Test
  void shouldBeDrainedOnlyWhenEveryMessageSentWasEchoed() {
    assertThat(run.drained()).isTrue();
    run.sent(START_NS);
    assertThat(run.drained()).isFalse();
    run.echoed(START_NS, START_NS, true);
    assertThat(run.drained()).isTrue();
  }
}
