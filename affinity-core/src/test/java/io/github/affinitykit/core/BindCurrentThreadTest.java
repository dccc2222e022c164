package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.NoopAffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.reservation.Reservation;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link AffinityKit#bindCurrentThread(Reservation)}: bind under a reservation someone else owns.
 */
@Timeout(30)
class BindCurrentThreadTest {
  @TempDir Path root;
  @TempDir Path locks;
  @TempDir Path otherLocks;
  private final RecordingAffinityBackend backend = new RecordingAffinityBackend(CpuSet.range(0, 3));

  private AffinityKit kit(Path dir) {
    HostCpus host = FakeHost.create(root, 4, 1).probe();
    return AffinityKit.create(host, backend, CpuReservations.inDirectory(dir));
  }

  @Test
  void shouldBindThreadsOneAfterAnotherWhileTheReservationStaysHeld() throws Exception {
    AffinityKit kit = kit(locks);
    Reservation r = kit.reservations().tryReserve(2).orElseThrow();

    for (int round = 0; round < 2; round++) {
      CompletableFuture<CpuSet> seen = new CompletableFuture<>();
      Thread t =
          new Thread(
              () -> {
                try (CpuLease lease = kit.bindCurrentThread(r)) {
                  assertThat(lease.status()).isEqualTo(LeaseStatus.PINNED);
                  assertThat(kit.pinnedThreadIds()).contains(lease.tid());
                  seen.complete(backend.getAffinity(0));
                } catch (AssertionError e) {
                  seen.completeExceptionally(e);
                }
              });
      t.start();
      assertThat(seen.get(10, TimeUnit.SECONDS)).isEqualTo(CpuSet.of(2));
      t.join(10_000);
      assertThat(r.isHeld()).isTrue();
      assertThat(kit.reservations().reservedHere()).isEqualTo(CpuSet.of(2));
    }
    assertThat(kit.pinnedThreadIds()).isEmpty();
    r.close();
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
  }

  @Test
  void shouldRestoreTheCallersMaskOnClose() {
    AffinityKit kit = kit(locks);
    CpuSet before = backend.getAffinity(0);
    try (Reservation r = kit.reservations().tryReserve(1).orElseThrow()) {
      CpuLease lease = kit.bindCurrentThread(r);
      assertThat(backend.getAffinity(0)).isEqualTo(CpuSet.of(1));
      lease.close();
      assertThat(backend.getAffinity(0)).isEqualTo(before);
      assertThat(r.isHeld()).isTrue();
    }
  }

  @Test
  void shouldRejectAClosedReservationOrOneFromAnotherDirectory() {
    AffinityKit kit = kit(locks);
    AffinityKit other = kit(otherLocks);
    Reservation foreign = other.reservations().tryReserve(3).orElseThrow();
    assertThatThrownBy(() -> kit.bindCurrentThread(foreign))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expected: a reservation in this kit's directory");
    foreign.close();

    Reservation closed = kit.reservations().tryReserve(3).orElseThrow();
    closed.close();
    assertThatThrownBy(() -> kit.bindCurrentThread(closed))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("expected: held, not closed");
  }

  @Test
  void shouldSayUnsupportedWithoutABackend() {
    HostCpus host = FakeHost.create(root, 4, 1).probe();
    AffinityKit kit =
        AffinityKit.create(
            host, new NoopAffinityBackend("no pinning here"), CpuReservations.inDirectory(locks));
    try (Reservation r = kit.reservations().tryReserve(1).orElseThrow();
        CpuLease lease = kit.bindCurrentThread(r)) {
      assertThat(lease.status()).isEqualTo(LeaseStatus.UNSUPPORTED);
      assertThat(lease.reason()).contains("no pinning here");
    }
  }
}
