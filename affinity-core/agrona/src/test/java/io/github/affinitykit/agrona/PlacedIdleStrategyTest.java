package io.github.affinitykit.agrona;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.WaitAdvice;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.placement.RunOutPolicy;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.FixtureHosts;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import io.github.affinitykit.watchdog.RepinPolicy;
import io.github.affinitykit.watchdog.Watchdog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The choice of {@link PlacedIdleStrategy} on fixture hosts, the threads pinned through a recording
 * backend: made by the calling thread at its first call, from its lease of the kit.
 */
@Timeout(30)
class PlacedIdleStrategyTest {
  @TempDir Path root;
  @TempDir Path locks;

  private AffinityKit kit(HostCpus host) {
    return AffinityKit.create(
        host, new RecordingAffinityBackend(CpuSet.range(0, 3)), CpuReservations.inDirectory(locks));
  }

  @Test
  void shouldBusySpinOnACpuWhoseWholeCoreIsIsolated() {
    AffinityKit kit = kit(FixtureHosts.isolated(root, 4, 1, "2-3"));
    PlacedIdleStrategy idle = PlacedIdleStrategy.of(kit);
    assertThat(idle.choice()).isEmpty();
    assertThat(idle.alias()).isEqualTo("placed");

    try (CpuLease lease = kit.pinCurrentThread(2)) {
      assertThat(lease.status()).isEqualTo(LeaseStatus.PINNED);
      idle.idle(0);
      idle.idle();
      idle.reset();

      WaitAdvice c = idle.choice().orElseThrow();
      assertThat(c.spin()).isTrue();
      assertThat(c.cpu()).isEqualTo(2);
      assertThat(c.thread()).isEqualTo(Thread.currentThread().getName());
      assertThat(c.reason()).isEqualTo(WaitAdvice.Reason.ISOLATED_CORE);
      assertThat(c.text()).isEqualTo("isolated, with its whole core 2");
      assertThat(idle.alias()).isEqualTo("placed-spin");
      assertThat(idle)
          .hasToString(
              "PlacedIdleStrategy["
                  + Thread.currentThread().getName()
                  + " on cpu 2: spin, ISOLATED_CORE (isolated, with its whole core 2)]");
    }
  }

  @Test
  void shouldBackOffWhileItsLeaseIsNotIntactAndSpinAgainOnceRepinned() throws Exception {
    AffinityKit kit = kit(FixtureHosts.isolated(root, 4, 1, "2-3"));
    PlacedIdleStrategy idle = PlacedIdleStrategy.of(kit);

    try (CpuLease lease = kit.pinCurrentThread(2)) {
      idle.idle(0);
      WaitAdvice spin = idle.choice().orElseThrow();
      idle.idle(5); // work done: nothing looked at
      assertThat(idle.alias()).isEqualTo("placed-spin");
      kit.backend().setAffinity(lease.tid(), CpuSet.range(0, 3)); // a cpuset widened
      idle.idle(0);
      assertThat(idle.alias()).as("nobody checked the lease yet").isEqualTo("placed-spin");

      assertThat(lease.check()).isEqualTo(LeaseStatus.MOVED); // the application's check
      idle.idle(0);

      WaitAdvice c = idle.choice().orElseThrow();
      assertThat(c.spin()).isFalse();
      assertThat(c.reason()).isEqualTo(WaitAdvice.Reason.NOT_INTACT);
      assertThat(c.cpu()).isEqualTo(2);
      assertThat(c.text())
          .isEqualTo(
              "lease MOVED (pinned to cpu 2 but the kernel now allows it on 0-3): backs off until"
                  + " it is pinned again");
      assertThat(idle.alias()).isEqualTo("placed-backoff");

      Watchdog.builder(kit).repin(RepinPolicy.REPIN).build().checkNow(); // puts it back on 2
      idle.idle();
      assertThat(idle.choice()).contains(spin);
      assertThat(idle.alias()).isEqualTo("placed-spin");

      Files.delete(kit.reservations().lockFile(2)); // another program's clean-up
      assertThat(lease.verify()).isEqualTo(LeaseStatus.LOST);
      idle.idle(0);
      assertThat(idle.choice().orElseThrow().text()).startsWith("lease LOST (");
      assertThat(idle.alias()).isEqualTo("placed-backoff");
    }
    idle.idle(0);
    assertThat(idle.alias()).as("closed: backs off for good").isEqualTo("placed-backoff");
  }

  @Test
  void shouldBackOffOnAPlainCpuAndSayNothingProvesItExclusive() {
    AffinityKit kit = kit(FixtureHosts.plain(root, 4, 1));
    PlacedIdleStrategy idle = PlacedIdleStrategy.of(kit);

    try (CpuLease lease = kit.pinCurrentThread(1)) {
      assertThat(lease.status()).isEqualTo(LeaseStatus.PINNED);
      idle.idle(0);
    }

    WaitAdvice c = idle.choice().orElseThrow();
    assertThat(c.spin()).isFalse();
    assertThat(c.cpu()).isEqualTo(1);
    assertThat(c.reason()).isEqualTo(WaitAdvice.Reason.NOT_AUDITED);
    assertThat(idle.alias()).isEqualTo("placed-backoff");
  }

  @Test
  void shouldBackOffWhenTheThreadHoldsNoLeaseAndKeepThatChoice() {
    AffinityKit kit = kit(FixtureHosts.isolated(root, 4, 1, "2-3"));
    PlacedIdleStrategy idle = PlacedIdleStrategy.of(kit);

    idle.reset(); // the first call of any kind decides
    try (CpuLease lease = kit.pinCurrentThread(2)) {
      assertThat(lease.cpu()).isEqualTo(2);
      idle.idle(0); // pinned on an isolated core now, but the choice is made
    }

    WaitAdvice c = idle.choice().orElseThrow();
    assertThat(c.reason()).isEqualTo(WaitAdvice.Reason.NOT_PINNED);
    assertThat(c.cpu()).isEqualTo(-1);
    assertThat(c.text()).startsWith("not pinned (UNPINNED: no lease of this kit)");
    assertThat(idle.alias()).isEqualTo("placed-backoff");
  }

  @Test
  void shouldBackOffWhenAnotherThreadOfTheKitRunsOnTheSameIsolatedCore() throws Exception {
    // 4 CPUs, 2 per core: cpu 1's core is 1,3, both isolated
    AffinityKit kit = kit(FixtureHosts.isolated(root, 4, 2, "1,3"));
    CountDownLatch bound = new CountDownLatch(1);
    CountDownLatch done = new CountDownLatch(1);
    Thread mate =
        new Thread(
            () -> {
              try (CpuLease l = kit.group("other").cpus(3).build().join("other-0").bindOnce()) {
                if (l.cpu() == 3) {
                  bound.countDown();
                }
                done.await(10, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    PlacedIdleStrategy alone = PlacedIdleStrategy.of(kit);
    PlacedIdleStrategy beside = PlacedIdleStrategy.of(kit);
    try (CpuLease lease = kit.pinCurrentThread(1)) {
      assertThat(lease.cpu()).isEqualTo(1);
      alone.idle(0); // before the core-mate is pinned: the rule alone decides
      mate.start();
      assertThat(bound.await(10, TimeUnit.SECONDS)).isTrue();
      beside.idle(0);
    } finally {
      done.countDown();
      mate.join(10_000);
    }

    assertThat(alone.choice().orElseThrow().spin()).isTrue();
    WaitAdvice c = beside.choice().orElseThrow();
    assertThat(c.reason()).isEqualTo(WaitAdvice.Reason.NEIGHBOUR_ON_CORE);
    assertThat(c.cpu()).isEqualTo(1);
    assertThat(c.text()).isEqualTo("core 1,3 also runs other/other-0");
  }

  @Test
  void shouldBackOffOnASharedLease() {
    AffinityKit kit = kit(FixtureHosts.isolated(root, 4, 1, "2-3"));
    PlacedIdleStrategy idle = PlacedIdleStrategy.of(kit);
    try (CpuGroup g = kit.group("g").pool(CpuSet.of(2)).runOut(RunOutPolicy.SHARE).build()) {
      g.join("g-0"); // holds cpu 2, not bound
      try (CpuLease lease = g.join("g-1").bindOnce()) {
        assertThat(lease.status()).isEqualTo(LeaseStatus.SHARED);
        idle.idle(0);
      }
    }

    WaitAdvice c = idle.choice().orElseThrow();
    assertThat(c.reason()).isEqualTo(WaitAdvice.Reason.NOT_PINNED);
    assertThat(c.cpu()).isEqualTo(2);
    assertThat(c.text()).startsWith("lease SHARED (");
  }
}
