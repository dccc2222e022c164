package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LoadRunTest {
  private static final long START_NS = 1_000;

  /** Recorded window 2 s, opened 1 s after the start: [START + 1 s, START + 3 s). */
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
              1));

  @BeforeEach
  void startAndOpenTheWindow() {
    run.start(START_NS);
    run.record(START_NS + Duration.ofSeconds(1).toNanos());
  }

  @Test
  void shouldRecordNothingBeforeTheWindowOpensAndSendUntilThen() {
    LoadRun warming = new LoadRun(run.config());
    assertThat(warming.startNs()).as("until every connection is ready").isEqualTo(Long.MAX_VALUE);
    warming.start(START_NS);
    warming.sent(START_NS);
    warming.echoed(START_NS, START_NS + 5, true);

    assertThat(warming.recordFromNs()).isEqualTo(Long.MAX_VALUE);
    assertThat(warming.stopNs()).isEqualTo(Long.MAX_VALUE);
    assertThat(warming.echoed()).isEqualTo(1);
    assertThat(warming.result().received()).isZero();
    warming.record(START_NS + 10);
    assertThat(warming.stopNs()).isEqualTo(START_NS + 10 + Duration.ofSeconds(2).toNanos());
  }

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

  @Test
  void shouldWaitForAConnectionThatHasNotSentItsBacklogYet() {
    run.senderStarted();
    run.senderStarted();
    run.sent(START_NS);
    run.echoed(START_NS, START_NS, true);
    run.senderDone();
    assertThat(run.drained()).as("one connection still behind its schedule").isFalse();
    run.senderDone();
    assertThat(run.drained()).isTrue();
  }
}
