package io.github.affinitykit.disruptor.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.disruptor.Pinning;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code compare-queues}: every contender end to end on a tiny run, pinned for real (no timing is
 * asserted: every event arrives once, in order, and every CPU is free afterwards).
 */
class CompareQueuesIT {
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
            List.of(Pinning.UNPINNED, Pinning.CONSUMERS, Pinning.ALL),
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
      assertThat(r.measured().latency().p50Us()).as(row + ": latencies recorded").isPositive();
      assertThat(r.cpus().split("[/,]")).as(row).hasSize(1 + r.consumers());
      assertThat(r.ranOn().split("[/,]")).as(row).hasSize(1 + r.consumers());
      assertThat(r.assignments()).as(row).isNotEmpty();
      if (r.pinning() == Pinning.UNPINNED) {
        assertThat(r.cpus()).as(row).doesNotContainPattern("[0-9]");
      }
    }
    assertThat(kit.pinnedThreadIds()).isEmpty();
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
    assertThat(Thread.getAllStackTraces().keySet())
        .noneMatch(t -> t.getName().startsWith("cmp-") && t.isAlive());
  }
}
