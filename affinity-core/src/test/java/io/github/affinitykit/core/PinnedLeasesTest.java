package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.FakeHost;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@link PinnedLeases}: the kit's open leases by thread, and the losses and moves found. */
@Timeout(30)
class PinnedLeasesTest {
  @TempDir Path root;
  @TempDir Path locks;
  private final RecordingAffinityBackend backend = new RecordingAffinityBackend(CpuSet.range(0, 3));

  private AffinityKit kit() {
    HostCpus host = FakeHost.create(root, 4, 1).probe();
    return AffinityKit.create(host, backend, CpuReservations.inDirectory(locks));
  }

  @Test
  void shouldFindEachOpenLeaseByThreadAndTheCallersOwn() throws Exception {
    AffinityKit kit = kit();
    assertThat(kit.currentLease()).isEmpty();
    CountDownLatch bound = new CountDownLatch(1);
    CountDownLatch done = new CountDownLatch(1);
    CompletableFuture<CpuLease> theirs = new CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              try (CpuLease l = kit.group("other").build().join("other-0").bindOnce()) {
                theirs.complete(l);
                bound.countDown();
                done.await(10, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "other-thread");
    t.start();
    try (CpuLease mine = kit.pinCurrentThread(3)) {
      assertThat(bound.await(10, TimeUnit.SECONDS)).isTrue();
      CpuLease other = theirs.get();

      assertThat(kit.currentLease()).containsSame(mine);
      assertThat(kit.lease(other.tid())).containsSame(other);
      assertThat(kit.leases()).containsExactly(other, mine); // by CPU: 0 before 3
      assertThat(kit.pinnedThreadIds()).containsExactlyInAnyOrder(mine.tid(), other.tid());
      assertThat(other.group()).isEqualTo("other");
      assertThat(other.member()).isEqualTo("other-0");
      assertThat(other.threadName()).isEqualTo("other-thread");
    } finally {
      done.countDown();
      t.join(10_000);
    }
    assertThat(kit.leases()).isEmpty();
    assertThat(kit.currentLease()).isEmpty();
  }

  @Test
  void shouldCountALossOnceWhenVerifyFindsTheLockFileGone() throws Exception {
    AffinityKit kit = kit();
    try (CpuLease lease = kit.pinCurrentThread(1)) {
      assertThat(lease.verify()).isEqualTo(LeaseStatus.PINNED);
      assertThat(kit.lostTotal()).isZero();

      Files.delete(kit.reservations().lockFile(1));

      assertThat(lease.verify()).isEqualTo(LeaseStatus.LOST);
      assertThat(lease.verify()).isEqualTo(LeaseStatus.LOST);
      assertThat(kit.lostTotal()).isEqualTo(1);
      assertThat(kit.pinned()).hasToString("PinnedLeases[1 open, moved 0, lost 1]");
    }
  }
}
