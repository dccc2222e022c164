package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.FakeHost;
import io.github.affinitykit.core.testkit.Racers;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seat's one state ({@link PinState}) under contention: the application's own checks of a lease
 * on many threads at once, and a bind racing the group's close, many times over, on a fixture kit
 * whose kernel is the recording backend; every transition is told exactly once. The race of closes,
 * checks and a bind with watchdogs is affinity-watchdog's {@code WatchdogStressTest}.
 */
@Timeout(120)
class PinStateStressTest {
  private static final int ITERATIONS = 300;
  private static final int CPU = 2;
  private static final int CHECKERS = 8;

  @TempDir Path root;
  @TempDir Path locks;
  private final RecordingAffinityBackend backend = new RecordingAffinityBackend(CpuSet.range(0, 5));

  private AffinityKit kit() {
    return AffinityKit.create(
        FakeHost.create(root, 6, 1).probe(), backend, CpuReservations.inDirectory(locks));
  }

  @Test
  void shouldCountAMoveAndALossOnceWhenManyThreadsCheckAtOnce() throws Exception {
    AffinityKit kit = kit();
    CountDownLatch end = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < ITERATIONS; i++) {
      long moved = kit.movedTotal();
      long lost = kit.lostTotal();
      try (CpuGroup group = kit.group("m" + i).cpus(CPU).build()) {
        CpuLease lease = Racers.bound(group.joinAll(1).get(0)::bind, end, threads);
        backend.setAffinity(lease.tid(), CpuSet.range(0, CPU));
        Files.delete(kit.reservations().lockFile(CPU));
        CyclicBarrier gate = new CyclicBarrier(CHECKERS);
        List<Thread> racers = new ArrayList<>();
        for (int c = 0; c < CHECKERS; c++) {
          racers.add(Racers.gated(gate, c % 2 == 0 ? lease::check : lease::verify));
        }
        for (Thread t : racers) {
          t.join(10_000);
          assertThat(t.isAlive()).as("%s still racing after 10 s", t.getName()).isFalse();
        }
        lease.check();
        lease.verify();

        assertThat(kit.movedTotal() - moved).as("iteration %d", i).isOne();
        assertThat(kit.lostTotal() - lost).as("iteration %d", i).isOne();
        assertThat(lease.status()).isEqualTo(LeaseStatus.MOVED); // a move shows over a loss
        assertThat(lease.isIntact()).isFalse();
        lease.close();
      }
    }
    end.countDown();
    for (Thread t : threads) {
      t.join(10_000);
    }
  }

  @Test
  void shouldFreeTheCpuOnceWhenABindRacesTheGroupsClose() throws Exception {
    AffinityKit kit = kit();
    int bound = 0;
    for (int i = 0; i < ITERATIONS; i++) {
      CpuGroup group = kit.group("c" + i).cpus(CPU).build();
      Seat seat = group.joinAll(1).get(0);
      CyclicBarrier gate = new CyclicBarrier(3);
      LinkedBlockingQueue<CpuLease> lease = new LinkedBlockingQueue<>();
      List<Thread> racers =
          List.of(
              Racers.gated(gate, () -> lease.add(seat.bind())),
              Racers.gated(gate, group::close),
              Racers.gated(gate, group::close));
      for (Thread t : racers) {
        t.join(10_000);
        assertThat(t.isAlive()).as("%s still racing after 10 s", t.getName()).isFalse();
      }
      CpuLease l = lease.poll(10, TimeUnit.SECONDS);
      if (l.cpu() == CPU) { // bound before the close: the CPU stays until the lease lets go
        bound++;
        assertThat(l.status()).isIn(LeaseStatus.PINNED, LeaseStatus.RELEASED);
        assertThat(kit.reservations().reservedHere()).isEqualTo(CpuSet.of(CPU));
      } else { // the bind saw the seat closed: nothing bound, nothing held
        assertThat(l.status()).isEqualTo(LeaseStatus.RELEASED);
        assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
      }
      l.close();
      assertThat(seat.status()).isEqualTo(LeaseStatus.RELEASED);
      assertThat(seat.isBound()).isFalse();
      assertThat(kit.reservations().reservedHere().isEmpty()).as("iteration %d", i).isTrue();
      assertThat(group.seats()).isEmpty();
    }
    assertThat(bound).as("some binds won the race").isPositive();
  }
}
