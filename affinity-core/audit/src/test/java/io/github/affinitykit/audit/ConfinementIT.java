package io.github.affinitykit.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.KitEvents;
import io.github.affinitykit.core.testkit.ThreadMasks;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one undo of a confinement, live on this JVM (2 CPUs are enough: the last is the pool, the
 * rest housekeeping): closing puts every thread the confinement moved back on its previous mask and
 * widens the threads born confined to the process's CPUs.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(60)
class ConfinementIT {
  @TempDir Path locks;

  @Test
  void shouldGiveEveryThreadItsMaskBackAndWidenThoseBornConfined() throws Exception {
    HostCpus host = HostCpus.probe();
    AffinityBackend backend = AffinityBackend.detect();
    assumeTrue(backend.isSupported() && host.reachable().size() >= 2, "needs pinning, 2 CPUs");
    CpuSet pool = CpuSet.of(host.reachable().last());
    AffinityKit kit =
        AffinityKit.create(host, backend, CpuReservations.inDirectory(locks), host.pool(pool));
    CpuSet housekeeping = kit.pool().housekeeping();
    Map<Integer, CpuSet> before = ThreadMasks.now();

    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread born;
    jdk.jfr.Recording recording = new jdk.jfr.Recording();
    recording.enable("io.github.affinitykit.Isolation");
    recording.start();
    try (Confinement c = JvmThreads.of(kit).confineUntilClosed(Duration.ofMillis(20))) {
      assertThat(c.report().moved()).isNotEmpty();
      assertThat(backend.getAffinity(0)).isEqualTo(housekeeping); // this thread, confined
      born = new Thread(() -> awaitQuietly(started, release), "born-confined");
      born.start();
      assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(ThreadMasks.now()).containsValue(housekeeping);
    }
    java.util.List<jdk.jfr.consumer.RecordedEvent> events =
        KitEvents.stopAndRead(recording, locks.resolve("confinement.jfr"));
    recording.close();
    assertThat(events)
        .extracting(
            e -> e.getString("kind") + " " + e.getString("cpus") + " " + e.getString("status"))
        .containsExactly(
            "confinement " + housekeeping + " CONFINED", "confinement " + housekeeping + " FREED");
    assertThat(events.get(0).getString("detail")).endsWith("threads moved, sweeps every PT0.02S");
    try {
      ThreadMasks.assertUnchangedSince(before);
      assertThat(ThreadMasks.now().get(tidOf("born-confined"))).isEqualTo(host.reachable());
    } finally {
      release.countDown();
      born.join(10_000);
    }
  }

  private static void awaitQuietly(CountDownLatch started, CountDownLatch release) {
    started.countDown();
    try {
      release.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static int tidOf(String name) {
    return ThreadStats.snapshot().threads().stream()
        .filter(t -> t.name().equals(name))
        .mapToInt(TaskSample::tid)
        .findFirst()
        .orElseThrow();
  }
}
