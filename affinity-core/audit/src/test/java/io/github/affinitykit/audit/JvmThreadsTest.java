package io.github.affinitykit.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.Fixtures;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

@Timeout(30)
class JvmThreadsTest {
  private static final HostCpus HOST = HostCpus.probe(Fixtures.root(Fixtures.E5));

  @Test
  void shouldReportEveryThreadAsFailedWithTheReasonWhenThePlatformCannotPin() {
    AffinityKit kit =
        AffinityKit.create(
            HOST,
            AffinityBackend.unsupported("no pinning in this test"),
            CpuReservations.inTempDirectory());

    ConfineReport r = JvmThreads.of(kit).confine(CpuSet.of(0), Set.of());

    assertThat(r.moved()).isEmpty();
    assertThat(r.failed())
        .isNotEmpty()
        .allSatisfy(e -> assertThat(e.detail()).isEqualTo("no pinning in this test"));
    assertThat(r.summary())
        .startsWith("confined to 0: moved 0, already there 0, kept pinned 0, failed ");
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void shouldKeepTheNamedThreadsAndReportThreadsTheKernelRefuses() {
    // The recording backend knows none of the real TIDs: the kernel-style answer is ESRCH.
    RecordingAffinityBackend fake = new RecordingAffinityBackend(CpuSet.range(0, 23));
    AffinityKit kit = AffinityKit.create(HOST, fake, CpuReservations.inTempDirectory());
    int self = ThreadStatsTest.currentTidOrFail();

    ConfineReport r = JvmThreads.of(kit).confine(CpuSet.of(0), Set.of(self));

    assertThat(r.kept()).extracting(ConfineReport.Entry::tid).containsExactly(self);
    assertThat(r.failed()).isNotEmpty().allSatisfy(e -> assertThat(e.detail()).contains("ESRCH"));
    assertThatThrownBy(() -> JvmThreads.of(kit).confine(CpuSet.empty(), Set.of()))
        .hasMessageContaining("housekeeping");
  }

  @Test
  void shouldSweepPeriodicallyAndStopWhenClosed() throws Exception {
    CountDownLatch three = new CountDownLatch(3);
    AtomicInteger sweeps = new AtomicInteger();
    ConfineReport report =
        new ConfineReport(CpuSet.of(0), List.of(), List.of(), List.of(), List.of());
    Sweeper sweeper;
    try (Sweeper s =
        new Sweeper(
            () -> {
              sweeps.incrementAndGet();
              three.countDown();
              return report;
            },
            Duration.ofMillis(5))) {
      sweeper = s;
      assertThat(three.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(s.lastReport()).isSameAs(report);
    }
    int after = sweeps.get();
    assertThat(sweeper.lastReport()).isSameAs(report);
    assertThat(sweeps.get()).isEqualTo(after); // joined: no sweep after close()
    assertThatThrownBy(() -> new Sweeper(() -> report, Duration.ZERO))
        .hasMessageContaining("period");
  }

  @Test
  void shouldSurfaceASweepFailureToTheCaller() throws Exception {
    CountDownLatch failed = new CountDownLatch(1);
    Sweeper s =
        new Sweeper(
            () -> {
              failed.countDown();
              throw new IllegalStateException("boom");
            },
            Duration.ofMillis(5));
    assertThat(failed.await(10, TimeUnit.SECONDS)).isTrue();
    s.close(); // joins: the failure is recorded by then
    assertThatThrownBy(s::lastReport).hasMessageContaining("sweeper stopped: boom");
  }

  @Test
  void shouldSweepThisJvmFromJvmThreads() {
    AffinityKit kit =
        AffinityKit.create(
            HOST, AffinityBackend.unsupported("none here"), CpuReservations.inTempDirectory());
    try (Sweeper s = JvmThreads.of(kit).sweepEvery(Duration.ofMillis(5))) {
      // the first sweep runs at once on the sweeper thread; wait for its report
      while (s.lastReport().housekeeping().isEmpty()) {
        Thread.yield();
      }
      ConfineReport r = s.lastReport();
      assertThat(r.housekeeping()).isEqualTo(kit.pool().housekeeping());
      assertThat(r.failed())
          .isNotEmpty()
          .allSatisfy(e -> assertThat(e.detail()).isEqualTo("none here"));
    }
  }
}
