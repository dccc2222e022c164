package io.github.affinitykit.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.testkit.FixtureKits;
import io.github.affinitykit.watchdog.Watchdog;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@link AffinityMeterBinder.Builder#watchdog}: a watchdog's counters, and its audit as source. */
@Timeout(30)
class WatchdogMetersTest {
  @TempDir Path root;
  private final MeterRegistry registry = new SimpleMeterRegistry();

  private double count(String name, String... tags) {
    return registry.get(name).tags(tags).functionCounter().count();
  }

  @Test
  void shouldCountTheWatchdogsChecksAndEventsByKindFromZero() {
    AffinityKit kit = FixtureKits.isolating(root, 4);
    Watchdog dog = Watchdog.builder(kit).build(); // not started: checked on demand
    AffinityMeterBinder.builder(kit).watchdog(dog).build().bindTo(registry);

    assertThat(
            registry.find("affinity.watchdog.events").functionCounters().stream()
                .map(c -> c.getId().getTag("kind"))
                .sorted()
                .toList())
        .isEqualTo(
            List.of(
                "exclusive",
                "intruded",
                "lost",
                "moved",
                "not_repinned",
                "repinned",
                "replanned",
                "unknown"));
    assertThat(count("affinity.watchdog.checks")).isZero();
    try (CpuLease lease = kit.pinCurrentThread(2)) {
      kit.backend().setAffinity(lease.tid(), CpuSet.range(0, 3)); // what offlining cpu 2 does

      dog.checkNow();

      assertThat(count("affinity.watchdog.checks")).isEqualTo(1);
      assertThat(count("affinity.watchdog.events", "kind", "moved")).isEqualTo(1);
      assertThat(count("affinity.watchdog.events", "kind", "lost")).isZero();
      assertThat(count("affinity.leases.moved")).isEqualTo(1);
      assertThat(count("affinity.watchdog.check.failures")).isZero();
      assertThat(count("affinity.watchdog.listener.failures")).isZero();
      assertThat(registry.find("affinity.cpu.verdict").meters()).isEmpty(); // it audits nothing
    }
  }
}
