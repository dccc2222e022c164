package io.github.affinitykit.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.testkit.ForwardingAffinityBackend;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** The meter: its settings, a live 2x2 matrix on this host, and a pair that never answers. */
class LatencyMeterTest {
  @Test
  @EnabledOnOs(OS.LINUX)
  @Timeout(120)
  void shouldMeasureThisHostsFirstTwoCpusWithPinnedThreads() throws InterruptedException {
    AffinityBackend backend = AffinityBackend.detect();
    assumeTrue(backend.isSupported(), backend.reason());
    CpuSet reachable = HostCpus.probe().reachable();
    assumeTrue(reachable.size() >= 2, "two CPUs: " + reachable);
    CpuSet two = CpuSet.of(reachable.first(), reachable.next(reachable.first() + 1));
    LatencyMatrix m =
        LatencyMeter.on(backend).trips(2_000).pairTimeout(Duration.ofSeconds(60)).measure(two);
    assertThat(m.cpus()).isEqualTo(two);
    double ns = m.pairNs(two.first(), two.last());
    // one way through the cache: from a few ns (SMT siblings) to a few µs (a loaded VM)
    assertThat(ns).isBetween(1.0, 100_000.0);
    assertThat(m.ns(two.last(), two.first())).isEqualTo(ns);
  }

  @Test
  @Timeout(30)
  void shouldStopBothThreadsAndSayWhichPairGaveNoResultInTime() throws InterruptedException {
    CountDownLatch release = new CountDownLatch(1);
    AffinityBackend stuck =
        new ForwardingAffinityBackend(new RecordingAffinityBackend(CpuSet.range(0, 1))) {
          @Override
          public void setAffinity(int tid, CpuSet cpus) {
            if (cpus.equals(CpuSet.of(1))) {
              try {
                release.await(20, TimeUnit.SECONDS); // the responder's CPU never runs it
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
          }
        };
    try {
      assertThatThrownBy(
              () ->
                  LatencyMeter.on(stuck)
                      .trips(10)
                      .pairTimeout(Duration.ofMillis(200))
                      .measure(CpuSet.range(0, 1)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage(
              "pair 0,1: no result within PT0.2S (expected: both CPUs free to run a spinning thread)");
    } finally {
      release.countDown();
    }
  }

  @Test
  @Timeout(30)
  void shouldFailWhenAThreadCannotBePinned() {
    AffinityBackend refusing =
        new ForwardingAffinityBackend(new RecordingAffinityBackend(CpuSet.range(0, 1))) {
          @Override
          public void setAffinity(int tid, CpuSet cpus) {
            throw new IllegalArgumentException("cpus: " + cpus + " (expected: CPUs of 0)");
          }
        };
    assertThatThrownBy(() -> LatencyMeter.on(refusing).trips(10).measure(CpuSet.range(0, 1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageMatching(
            "cpu [01]: the measuring thread failed \\(cpus: [01] \\(expected: CPUs of 0\\)\\)");
  }

  @Test
  void shouldRefuseSettingsOutOfRangeAndABackendThatCannotPin() {
    LatencyMeter meter = LatencyMeter.on(new RecordingAffinityBackend(CpuSet.range(0, 1)));
    assertThat(meter.trips()).isEqualTo(LatencyMeter.DEFAULT_TRIPS);
    assertThat(meter.pairTimeout()).isEqualTo(LatencyMeter.DEFAULT_PAIR_TIMEOUT);
    assertThatThrownBy(() -> meter.trips(0)).hasMessage("trips: 0 (expected: 1 to 10000000)");
    assertThatThrownBy(() -> meter.pairTimeout(Duration.ZERO))
        .hasMessage("pairTimeout: PT0S (expected: 1 ms to 1 h)");
    assertThatThrownBy(() -> meter.measure(CpuSet.empty()))
        .hasMessage("cpus: empty (expected: at least one CPU)");
    assertThatThrownBy(
            () ->
                LatencyMeter.on(AffinityBackend.unsupported("os.name Mac OS X: only Linux"))
                    .measure(CpuSet.of(0)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "backend: os.name Mac OS X: only Linux (expected: a backend that pins threads)");
  }
}
