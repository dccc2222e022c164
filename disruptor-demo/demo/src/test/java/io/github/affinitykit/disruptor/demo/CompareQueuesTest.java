package io.github.affinitykit.disruptor.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.CliRun;
import io.github.affinitykit.disruptor.Pinning;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code compare-queues}: its tally, rows, ratios and flags. A run end to end: {@link
 * CompareQueuesIT}.
 */
class CompareQueuesTest {
  @TempDir Path locks;

  private AffinityKit kit() {
    return AffinityKit.create(
        HostCpus.probe(), AffinityBackend.detect(), CpuReservations.inDirectory(locks));
  }

  @Test
  void shouldCountAnEventOutOfOrderOrTwiceAsAnError() {
    Tally t = new Tally();

    t.on(0, 0);
    t.on(2, 0); // 1 lost
    t.on(2, 0); // twice
    t.on(3, 0);

    assertThat(t.errors()).isEqualTo(2);
    assertThat(t.processed()).isEqualTo(4);
  }

  @Test
  void shouldNotCallARowOkWhenAConsumerMissedEvents() {
    Comparison full = comparison(3, 100, 300, 0);
    Comparison shortOne = comparison(3, 100, 299, 0);
    Comparison reordered = comparison(1, 100, 100, 1);

    assertThat(full.ok()).isTrue();
    assertThat(shortOne.ok()).isFalse();
    assertThat(CompareTable.row(shortOne)).endsWith("| 299/300 taken |");
    assertThat(reordered.ok()).isFalse();
    assertThat(CompareTable.row(reordered)).contains("1 MISSING/REORDERED");
  }

  @Test
  void shouldPrintTheRatioOfTheBestPinnedDisruptorToTheBestQueueBesideLmax() {
    Comparison queue = comparison(Contender.AGRONA_SPIN, Pinning.UNPINNED, 10e6);
    Comparison slowQueue = comparison(Contender.ABQ, Pinning.CONSUMERS, 2e6);
    Comparison unpinned = comparison(Contender.DISRUPTOR_BUSY_SPIN, Pinning.UNPINNED, 90e6);
    Comparison pinned = comparison(Contender.DISRUPTOR_YIELDING, Pinning.CONSUMERS, 25e6);

    String ratios = CompareTable.ratios(List.of(queue, slowQueue, unpinned, pinned));

    assertThat(ratios)
        .startsWith(
            "- 1P→1C: Disruptor pinned (disruptor-yielding, consumers) 25.00 Mev/s ÷ best queue"
                + " (agrona-spin, unpinned) 10.00 Mev/s = 2.50×\n")
        .contains("160.4M ÷ 20.9M", "7.7×");
  }

  @Test
  void shouldParseCompareQueuesFlagsAndRejectAnUnknownContender() {
    CliRun bad =
        CliRun.of(
            (o, e) ->
                DemoMain.execute(
                    this::kit, List.of("compare-queues", "--contenders", "abq,ring"), o, e));
    CliRun help =
        CliRun.of((o, e) -> DemoMain.execute(this::kit, List.of("compare-queues", "--help"), o, e));
    CliRun version =
        CliRun.of(
            (o, e) -> DemoMain.execute(this::kit, List.of("compare-queues", "--version"), o, e));

    bad.assertUsageError("--contenders: abq,ring (expected: abq, lbq, agrona-spin, agrona-park,");
    assertThat(help.status()).isZero();
    assertThat(help.out())
        .startsWith("Usage: disruptor-demo compare-queues")
        .containsSubsequence(
            "--quick", "--contenders=LIST", "-h, --help", "-V, --version", "Exit status:", "0   ");
    assertThat(version.out()).startsWith("disruptor-demo compare-queues (Affinity Kit ");
  }

  private static Comparison comparison(int consumers, long published, long delivered, long errors) {
    return new Comparison(
        Contender.ABQ,
        consumers,
        Pinning.UNPINNED,
        "*/*",
        "0/1",
        List.of(),
        published,
        delivered,
        measured(1e6, errors));
  }

  private static Comparison comparison(Contender c, Pinning pinning, double eventsPerSecond) {
    return new Comparison(
        c, 1, pinning, "*/*", "0/1", List.of(), 10, 10, measured(eventsPerSecond, 0));
  }

  private static Measured measured(double eventsPerSecond, long errors) {
    return new Measured(
        eventsPerSecond, new Latency(1, 2, 2), new Switches(0, 0), 1, 1, 0, errors, "");
  }
}
