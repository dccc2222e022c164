package io.github.affinitykit.disruptor.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.CliRun;
import io.github.affinitykit.disruptor.Pinning;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** {@code compare-queues}: every contender end to end on a tiny run (no timing is asserted). */
class CompareQueuesTest {
  @TempDir Path locks;

  private AffinityKit kit() {
    return AffinityKit.create(
        HostCpus.probe(), AffinityBackend.detect(), CpuReservations.inDirectory(locks));
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  @Timeout(180)
  void shouldRunEveryContenderEndToEndWithoutLosingOrReorderingAnEvent() throws Exception {
    AffinityKit kit = kit();
    CompareOptions o =
        new CompareOptions(
            5,
            50,
            50_000,
            0,
            64,
            List.of(1, 3),
            List.of(Pinning.NONE, Pinning.CONSUMERS, Pinning.ALL),
            List.of(Contender.values()));
    List<Comparison> rows = new ArrayList<>();

    for (int consumers : o.shapes()) {
      for (Pinning pinning : o.pinnings()) {
        for (Contender c : o.contenders()) {
          rows.add(new CompareRunner(kit, o).run(c, consumers, pinning));
        }
      }
    }

    assertThat(rows).hasSize(o.rows());
    for (Comparison r : rows) {
      String row = CompareTable.row(r);
      assertThat(r.measured().errors()).as(row).isZero();
      assertThat(r.measured().note()).as(row).isEmpty();
      assertThat(r.published()).as(row).isGreaterThan(o.pacedEvents());
      assertThat(r.delivered()).as(row).isEqualTo(r.published() * r.consumers());
      assertThat(r.ok()).as(row).isTrue();
      assertThat(r.measured().eventsPerSecond()).as(row).isPositive();
      assertThat(r.measured().latency().p99Us())
          .as(row)
          .isGreaterThanOrEqualTo(r.measured().latency().p50Us())
          .isPositive();
      assertThat(r.cpus().split("[/,]")).as(row).hasSize(1 + r.consumers());
      assertThat(r.ranOn().split("[/,]")).as(row).hasSize(1 + r.consumers());
      assertThat(r.assignments()).as(row).isNotEmpty();
      if (r.pinning() == Pinning.NONE) {
        assertThat(r.cpus()).as(row).doesNotContainPattern("[0-9]");
      }
    }
    assertThat(kit.pinnedThreadIds()).isEmpty();
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
    assertThat(Thread.getAllStackTraces().keySet())
        .noneMatch(t -> t.getName().startsWith("cmp-") && t.isAlive());
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
    assertThat(CompareTable.row(reordered)).contains("1 LOST/REORDERED");
  }

  @Test
  void shouldPrintTheRatioOfTheBestPinnedDisruptorToTheBestQueueBesideLmax() {
    Comparison queue = comparison(Contender.AGRONA_SPIN, Pinning.NONE, 10e6);
    Comparison slowQueue = comparison(Contender.ABQ, Pinning.CONSUMERS, 2e6);
    Comparison unpinned = comparison(Contender.DISRUPTOR_BUSY_SPIN, Pinning.NONE, 90e6);
    Comparison pinned = comparison(Contender.DISRUPTOR_YIELDING, Pinning.CONSUMERS, 25e6);

    String ratios = CompareTable.ratios(List.of(queue, slowQueue, unpinned, pinned));

    assertThat(ratios)
        .startsWith(
            "- 1P→1C: Disruptor pinned (disruptor-yielding, consumers) 25.00 Mev/s ÷ best queue"
                + " (agrona-spin, none) 10.00 Mev/s = 2.50×\n")
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
        Pinning.NONE,
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
