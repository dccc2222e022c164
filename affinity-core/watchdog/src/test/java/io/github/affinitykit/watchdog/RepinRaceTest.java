package io.github.affinitykit.watchdog;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.Seat;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.FakeHost;
import io.github.affinitykit.core.testkit.PinTrapBackend;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two races of a watchdog's re-pin, each forced at its one interleaving by a backend that acts in
 * the middle of a system call: a late re-pin after its lease closed and the thread bound anew, and
 * two watchdogs sharing one lease's moves.
 */
@Timeout(30)
class RepinRaceTest {
  private static final int CPU = 2;

  @TempDir Path root;
  @TempDir Path locks;
  private final RecordingAffinityBackend sim = new RecordingAffinityBackend(CpuSet.range(0, 5));
  private final PinTrapBackend backend = new PinTrapBackend(sim);

  private AffinityKit kit() {
    return AffinityKit.create(
        FakeHost.create(root, 6, 1).probe(), backend, CpuReservations.inDirectory(locks));
  }

  @Test
  void shouldNotUndoANewLeasesPinWhenALateRepinFindsItsLeaseClosed() {
    AffinityKit kit = kit();
    CpuGroup group = kit.group("r").cpus(CPU).build();
    Seat seat = group.joinAll(1).get(0);
    CpuLease first = seat.bind();
    int self = first.tid();
    sim.setAffinity(self, CpuSet.range(CPU, CPU + 1)); // moved: the kernel allows more
    assertThat(first.check()).isEqualTo(LeaseStatus.MOVED);
    AtomicReference<CpuLease> second = new AtomicReference<>();
    backend.onPin( // the re-pin's set is done; the lease closes and the thread binds again
        () -> {
          first.close();
          second.set(seat.bind());
        });

    try (Watchdog repin = Watchdog.builder(kit).repin(RepinPolicy.REPIN).build()) {
      repin.checkNow();
    }

    assertThat(second.get().status()).isEqualTo(LeaseStatus.PINNED);
    assertThat(sim.maskOf(self)).as("the new lease's pin stands").isEqualTo(CpuSet.of(CPU));
    second.get().close();
    assertThat(sim.maskOf(self)).isEqualTo(first.previousMask());
    group.close();
  }

  @Test
  void shouldTellAMoveAfterAnotherWatchdogsRepinAgain() {
    AffinityKit kit = kit();
    CpuGroup group = kit.group("w").cpus(CPU).build();
    CpuLease lease = group.joinAll(1).get(0).bind();
    try (Watchdog report = Watchdog.builder(kit).build();
        Watchdog repin = Watchdog.builder(kit).repin(RepinPolicy.REPIN).build()) {
      for (int move = 1; move <= 2; move++) {
        sim.setAffinity(lease.tid(), CpuSet.range(CPU, CPU + 1));
        report.checkNow();
        repin.checkNow();

        assertThat(report.count(WatchEvent.Kind.MOVED)).as("move %d", move).isEqualTo(move);
        assertThat(repin.count(WatchEvent.Kind.REPINNED)).as("move %d", move).isEqualTo(move);
        assertThat(lease.status()).isEqualTo(LeaseStatus.PINNED);
      }
      report.checkNow();
      assertThat(report.count(WatchEvent.Kind.MOVED)).as("a re-pinned lease").isEqualTo(2);
    } finally {
      lease.close();
      group.close();
    }
  }
}
