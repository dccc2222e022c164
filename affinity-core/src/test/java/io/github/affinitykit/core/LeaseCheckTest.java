package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.FakeHost;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CpuLease#check()}: a lease whose thread the kernel moved off its CPU (the CPU went
 * offline, a cpuset shrank) says so instead of claiming it is still pinned. The live proof is the
 * kernel suite's offline shape; here the kernel's move is simulated on the recording backend.
 */
@Timeout(30)
class LeaseCheckTest {
  @TempDir Path root;
  @TempDir Path locks;
  private final RecordingAffinityBackend backend = new RecordingAffinityBackend(CpuSet.range(0, 3));

  private AffinityKit kit() {
    HostCpus host = FakeHost.create(root, 4, 1).probe();
    return AffinityKit.create(host, backend, CpuReservations.inDirectory(locks));
  }

  @Test
  void shouldReportMovedAndCountItWhenTheKernelWidenedThePinnedMask() {
    AffinityKit kit = kit();
    AffinityKit other = kit();
    CpuSet before = backend.getAffinity(0);
    long movedBefore = kit.movedTotal();
    try (CpuLease lease = kit.pinCurrentThread(2)) {
      assertThat(lease.check()).isEqualTo(LeaseStatus.PINNED);

      backend.setAffinity(lease.tid(), CpuSet.range(0, 3)); // what offlining cpu 2 does

      assertThat(lease.check()).isEqualTo(LeaseStatus.MOVED);
      assertThat(lease.status()).isEqualTo(LeaseStatus.MOVED);
      assertThat(lease.isBound()).isFalse();
      assertThat(lease.reason()).contains("cpu 2").contains("0-3");
      assertThat(lease.check()).isEqualTo(LeaseStatus.MOVED);
      assertThat(kit.movedTotal()).isEqualTo(movedBefore + 1);
      assertThat(other.movedTotal()).isZero(); // the counter is the kit's, not the JVM's
      assertThat(kit.reservations().reservedHere()).isEqualTo(CpuSet.of(2));
    }
    assertThat(backend.getAffinity(0)).isEqualTo(before);
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
  }

  @Test
  void shouldLeaveUnboundAndReleasedLeasesAsTheyAre() {
    AffinityKit kit = kit();
    CpuLease lease = kit.pinCurrentThread(1);
    lease.close();
    long movedBefore = kit.movedTotal();

    assertThat(lease.check()).isEqualTo(LeaseStatus.RELEASED);
    try (CpuLease unbound = kit.group("u").unpinned("pool ran out").build().join().bindOnce()) {
      assertThat(unbound.check()).isEqualTo(LeaseStatus.UNPINNED);
      assertThat(unbound.reason()).isEqualTo("pool ran out");
    }
    assertThat(kit.movedTotal()).isEqualTo(movedBefore);
  }

  @Test
  void shouldKeepTheMoveToTheLeaseFoundMovedWhenASeatHasTwoThreads() throws Exception {
    AffinityKit kit = kit();
    Seat seat = kit.group("loop").cpus(3).build().joinAll(1).get(0);
    CpuLease[] other = new CpuLease[1];
    Thread t = new Thread(() -> other[0] = seat.bind(), "resumed-loop"); // a loop resumed
    t.start();
    t.join(10_000);
    try (CpuLease mine = seat.bind()) {
      backend.setAffinity(mine.tid(), CpuSet.range(0, 3));

      assertThat(mine.check()).isEqualTo(LeaseStatus.MOVED);
      assertThat(other[0].status()).isEqualTo(LeaseStatus.PINNED); // not the other thread's move
      assertThat(other[0].reason()).isEqualTo("explicit cpu 3");
      assertThat(seat.status()).isEqualTo(LeaseStatus.MOVED); // the report says it
    } finally {
      other[0].close();
      seat.close();
    }
  }
}
