package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real pinning on this machine. Assumes only what a 2-CPU Linux box gives: the last reachable CPU
 * is pinned, the first one is housekeeping. (The live audit is affinity-audit's {@code
 * LiveAuditIT}.)
 */
@EnabledOnOs(OS.LINUX)
@Timeout(60)
class LivePinningIT {
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
  void shouldRunAPinnedThreadOnItsAssignedCpu() throws Exception {
    PinnedThreadFactory f = PinnedThreadFactory.builder(kit.group("live")).build();
    CountDownLatch done = new CountDownLatch(1);
    String[] seen = new String[2];
    Thread t =
        f.newThread(
            () -> {
              seen[0] = Linux.cpusAllowedList();
              seen[1] = String.valueOf(kit.backend().currentCpu());
              done.countDown();
            });
    Assignment a = f.assignments().get(0);
    t.start();
    assertThat(done.await(20, TimeUnit.SECONDS)).isTrue();
    t.join(10_000);

    assertThat(a.cpu()).isEqualTo(cpu);
    assertThat(seen[0]).isEqualTo(String.valueOf(cpu));
    assertThat(seen[1]).isEqualTo(String.valueOf(cpu));
    assertThat(a.status()).isEqualTo(LeaseStatus.PINNED);
    assertThat(f.assignments()).isEmpty();
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
  }

  @Test
  void shouldRestoreTheMaskWhenTheLeaseIsClosedFromAnotherThread() throws Exception {
    String before = Linux.cpusAllowedList();
    CpuLease[] lease = new CpuLease[1];
    CountDownLatch pinned = new CountDownLatch(1);
    CountDownLatch closed = new CountDownLatch(1);
    String[] after = new String[2];
    Thread t =
        new Thread(
            () -> {
              lease[0] = kit.pinCurrentThread(cpu);
              after[0] = Linux.cpusAllowedList();
              pinned.countDown();
              try {
                closed.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              after[1] = Linux.cpusAllowedList();
            });
    t.start();
    try {
      assertThat(pinned.await(20, TimeUnit.SECONDS)).isTrue();
      assertThat(lease[0].status()).isEqualTo(LeaseStatus.PINNED);
      assertThat(after[0]).isEqualTo(String.valueOf(cpu));
      lease[0].close(); // from the test thread, not the owner
      assertThat(lease[0].status()).isEqualTo(LeaseStatus.RELEASED);
    } finally {
      closed.countDown();
      t.join(10_000);
    }
    assertThat(after[1]).isEqualTo(before);
    assertThat(kit.reservations().tryReserve(cpu).orElseThrow().isHeld()).isTrue();
  }
}
