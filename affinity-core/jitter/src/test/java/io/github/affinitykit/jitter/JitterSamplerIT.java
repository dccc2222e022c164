package io.github.affinitykit.jitter;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.internal.SysFs;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.reservation.ReservationResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sampler on a real pinned thread, on the last CPU of this host (CPU 1 of a 2-CPU box), for a
 * short window: a consistent result (the histogram's counts, the time lost the sum of the gaps, the
 * share in [0, 1]), the counters of this host's {@code /proc} read around it, the audit of the same
 * CPU, and the lease and reservation released at the end. Nothing about how long the gaps are is
 * asserted: that is the host's, not the sampler's.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(60)
class JitterSamplerIT {
  @TempDir Path locks;
  private AffinityKit kit;
  private int cpu;

  @BeforeEach
  void setUp() {
    HostCpus host = HostCpus.probe();
    cpu = host.reachable().last();
    kit =
        AffinityKit.create(
            host,
            AffinityBackend.detect(),
            CpuReservations.inDirectory(locks),
            host.pool(CpuSet.of(cpu)));
  }

  @Test
  void shouldSampleAPinnedThreadIntoAConsistentResult() {
    JitterReport report =
        JitterSampler.on(kit, CpuSet.of(cpu))
            .window(Duration.ofMillis(50))
            .floor(Duration.ofNanos(1_000))
            .threshold(Duration.ofNanos(1_000)) // every gap is logged, up to the log's capacity
            .largest(5)
            .run();

    assertThat(report.cpus()).hasSize(1);
    CpuJitter c = report.cpu(cpu);
    assertThat(c.status()).isEqualTo(LeaseStatus.PINNED);
    assertThat(c.samples()).isGreaterThan(1);
    assertThat(c.spanNs()).isPositive();
    long counted = 0;
    for (GapHistogram.Bucket b : c.histogram().buckets()) {
      counted += b.count();
    }
    assertThat(counted).isEqualTo(c.histogram().totalCount());
    assertThat(c.lostNs()).isGreaterThanOrEqualTo(c.histogram().totalCount() * 1_000);
    assertThat(c.lostNs()).isLessThanOrEqualTo(c.spanNs());
    assertThat(c.lostShare()).isBetween(0.0, 1.0);
    long logged = c.overThreshold().stream().mapToLong(Gap::durationNs).sum();
    assertThat(c.overThreshold().size() + c.overThresholdDropped())
        .isEqualTo(c.histogram().totalCount());
    if (c.overThresholdDropped() == 0) {
      assertThat(c.lostNs()).isEqualTo(logged); // every gap logged: lost is exactly their sum
    } else {
      assertThat(c.lostNs()).isGreaterThan(logged);
    }
    assertThat(c.largest()).hasSizeLessThanOrEqualTo(5);
    assertThat(c.largest())
        .isSortedAccordingTo((a, b) -> Long.compare(b.durationNs(), a.durationNs()));
    assertThat(c.largest())
        .allSatisfy(
            g -> {
              assertThat(g.cpu()).isEqualTo(cpu);
              assertThat(g.durationNs()).isGreaterThanOrEqualTo(1_000);
              assertThat(g.attribution().counted()).isTrue(); // this host has /proc/interrupts
            });
    assertThat(c.maxGapNs()).isEqualTo(c.largest().isEmpty() ? 0 : c.largest().get(0).durationNs());
    assertThat(report.readings()).isGreaterThanOrEqualTo(2);
    assertThat(c.audit()).hasValueSatisfying(v -> assertThat(v.cpu()).isEqualTo(cpu));
    assertThat(c.summary()).startsWith("cpu " + cpu + " PINNED: ");

    assertThat(kit.pinnedThreadIds()).isEmpty();
    ReservationResult again = kit.reservations().tryReserve(cpu);
    assertThat(again.isReserved()).as(again.toString()).isTrue();
    again.orElseThrow().close();
  }

  @Test
  void shouldCountTheLocalTimerOverTheWindowWithoutAnAudit() throws Exception {
    boolean ticks =
        Files.readAllLines(Path.of("/proc/interrupts")).stream()
            .anyMatch(l -> l.trim().startsWith("LOC:"));
    boolean tickless =
        new SysFs(Path.of("/"))
            .cpuListOrEmpty("/sys/devices/system/cpu/nohz_full")
            .map(s -> s.contains(cpu))
            .orElse(false);
    JitterReport report =
        JitterSampler.on(kit, CpuSet.of(cpu)).window(Duration.ofMillis(30)).audit(false).run();
    CpuJitter c = report.cpu(cpu);
    assertThat(c.audit()).isEmpty();
    assertThat(report.readings()).isGreaterThanOrEqualTo(2);
    assertThat(c.window()).allSatisfy(m -> assertThat(m.delta()).isPositive());
    if (ticks && !tickless) { // a busy CPU outside nohz_full takes the tick: 30 ms hold several
      assertThat(c.window()).extracting(CounterMove::source).contains("irq LOC");
    }
  }

  @Test
  void shouldSampleAnUnpinnedThreadWithoutAttributingItsGapsToACpu() {
    JitterReport report =
        JitterSampler.on(kit, CpuSet.of(cpu))
            .window(Duration.ofMillis(20))
            .threshold(Duration.ofNanos(1_000))
            .audit(false)
            .group(b -> b.unpinned("an unpinned arm"))
            .run();
    CpuJitter c = report.cpu(cpu);
    assertThat(c.status()).isEqualTo(LeaseStatus.UNPINNED);
    assertThat(c.reason()).contains("an unpinned arm");
    assertThat(c.window()).isEmpty();
    assertThat(c.overThreshold())
        .allSatisfy(
            g -> {
              assertThat(g.cpu()).isEqualTo(-1);
              assertThat(g.attribution().cause()).isEqualTo("not counted");
            });
    assertThat(c.samples()).isGreaterThan(1);
  }
}
