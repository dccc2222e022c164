package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.placement.Placement;
import io.github.affinitykit.core.placement.RunOutPolicy;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.reservation.Reservation;
import io.github.affinitykit.core.reservation.ReservationStatus;
import io.github.affinitykit.core.testkit.Fixtures;
import io.github.affinitykit.core.testkit.ForwardingAffinityBackend;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import net.openhft.affinity.AffinityStrategies;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The placement protocol, once for every adapter: planning, reservation, each run-out policy,
 * explicit CPUs, seating a fixed set of members, binding (and the adapters' task wrappers) and
 * closing. On the seed machine's topology (2 sockets x 6 cores x 2 threads) with a simulated
 * backend and a private lock directory.
 */
@Timeout(30)
class CpuGroupTest {
  private static final HostCpus E5 = HostCpus.probe(Fixtures.root(Fixtures.E5));

  @TempDir Path locks;
  private final RecordingAffinityBackend backend =
      new RecordingAffinityBackend(CpuSet.range(0, 23));

  private AffinityKit kit() {
    return AffinityKit.create(E5, backend, CpuReservations.inDirectory(locks));
  }

  private static List<Integer> cpus(CpuGroup g) {
    return g.seats().stream().map(Seat::cpu).toList();
  }

  @Test
  void shouldGiveEachMemberItsOwnCoreByPlacementAndReserveIt() {
    AffinityKit kit = kit();
    CpuGroup g =
        kit.group("w")
            .pool(CpuSet.parse("0-23"))
            .placements(List.of(Placement.DIFFERENT_CORE, Placement.ANY))
            .build();

    for (int i = 0; i < 3; i++) {
      g.join();
    }

    assertThat(g.seats()).extracting(Seat::member).containsExactly("w-0", "w-1", "w-2");
    assertThat(g.seats()).extracting(Seat::status).containsOnly(LeaseStatus.PINNED);
    assertThat(cpus(g).stream().map(c -> E5.topology().cpu(c).core()).distinct()).hasSize(3);
    assertThat(kit.reservations().reservedHere()).isEqualTo(g.held());
  }

  @Test
  void shouldRunOutUnpinnedByDefaultSayingWhy() {
    CpuGroup g = kit().group("u").pool(CpuSet.of(20)).build();

    g.join();
    Seat out = g.join();

    assertThat(out.status()).isEqualTo(LeaseStatus.UNPINNED);
    assertThat(out.cpu()).isEqualTo(-1);
    assertThat(out.reason()).contains("no CPU of pool 20 left for u-1");
  }

  @Test
  void shouldShareTheLeastLoadedHeldCpuLowestFirstWhenTheRunOutPolicyIsShare() {
    CpuGroup g = kit().group("s").pool(CpuSet.of(20, 21)).runOut(RunOutPolicy.SHARE).build();

    for (int i = 0; i < 5; i++) {
      g.join();
    }

    assertThat(g.seats())
        .extracting(Seat::cpu, Seat::status)
        .containsExactly(
            tuple(20, LeaseStatus.PINNED),
            tuple(21, LeaseStatus.PINNED),
            tuple(20, LeaseStatus.SHARED),
            tuple(21, LeaseStatus.SHARED),
            tuple(20, LeaseStatus.SHARED));
    g.seats().get(1).close(); // 21 now has one member, 20 has three
    assertThat(g.join().cpu()).isEqualTo(21);
  }

  @Test
  void shouldRunUnpinnedUnderShareWhenTheGroupHoldsNoCpu() {
    AffinityKit kit = kit();
    Reservation other = kit.reservations().tryReserve(20).orElseThrow();
    CpuGroup g = kit.group("n").pool(CpuSet.of(20)).runOut(RunOutPolicy.SHARE).build();

    Seat s = g.join();

    assertThat(s.status()).isEqualTo(LeaseStatus.UNPINNED);
    assertThat(s.reason()).contains("already reserved by this JVM");
    other.close();
  }

  @Test
  void shouldThrowNamingTheMemberWhenTheRunOutPolicyIsFail() {
    CpuGroup g = kit().group("f").pool(CpuSet.of(20)).runOut(RunOutPolicy.FAIL).build();
    g.join();

    assertThatThrownBy(g::join)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("f-1")
        .hasMessageContaining("run-out policy FAIL");
    assertThat(g.seats()).hasSize(1);
  }

  @Test
  void shouldSkipCpusOthersHoldAndRecordTheRefusalsWithoutProbing() {
    AffinityKit kit = kit();
    Reservation other = kit.reservations().tryReserve(20).orElseThrow();
    CpuGroup g = kit.group("r").pool(CpuSet.of(20, 21, 22)).build();

    Seat s = g.join();

    assertThat(s.cpu()).isEqualTo(21);
    assertThat(g.refused().keySet()).containsExactly(20);
    assertThat(g.refused().get(20).status()).isEqualTo(ReservationStatus.HELD_BY_THIS_JVM);
    assertThat(kit.reservations().reservedHere()).hasToString("20-21"); // 22 never touched
    other.close();
  }

  @Test
  void shouldShareAnExplicitCpuItHoldsAndApplyTheRunOutPolicyWhenItIsTaken() {
    AffinityKit kit = kit();
    Reservation other = kit.reservations().tryReserve(5).orElseThrow();
    CpuGroup g = kit.group("x").runOut(RunOutPolicy.FAIL).build();

    assertThat(g.joinOn("x-0", 3).status()).isEqualTo(LeaseStatus.PINNED);
    assertThat(g.joinOn("x-1", 3).status()).isEqualTo(LeaseStatus.SHARED);
    assertThatThrownBy(() -> g.joinOn("x-2", 5)).hasMessageContaining("run-out policy FAIL");
    assertThatThrownBy(() -> g.joinOn("x-3", 99))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("x: cpu: 99 (expected: CPUs this process may use");
    other.close();
  }

  @Test
  void shouldKeepTheCpuAcrossThreadsUntilTheSeatCloses() {
    AffinityKit kit = kit();
    CpuGroup g = kit.group("k").pool(CpuSet.of(7)).build();
    Seat seat = g.join();
    CpuSet before = backend.getAffinity(0);

    CpuLease first = seat.bind();
    assertThat(backend.getAffinity(0)).hasToString("7");
    assertThat(seat.isBound()).isTrue();
    first.close();
    assertThat(backend.getAffinity(0)).isEqualTo(before);
    assertThat(g.held()).hasToString("7"); // the seat keeps it between threads
    seat.bind().close();

    assertThat(seat.starts()).isEqualTo(2);
    seat.close();
    assertThat(g.held().isEmpty()).isTrue();
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
    assertThat(seat.status()).isEqualTo(LeaseStatus.RELEASED);
  }

  @Test
  void shouldFreeIdleSeatsOnCloseAndBoundOnesWhenTheirThreadLetsGo() {
    AffinityKit kit = kit();
    CpuGroup g = kit.group("c").pool(CpuSet.of(8, 9)).build();
    Seat idle = g.join();
    Seat busy = g.join();
    CpuLease lease = busy.bind();

    g.close();

    assertThat(idle.status()).isEqualTo(LeaseStatus.RELEASED);
    assertThat(idle.reason()).isEqualTo("never started; freed by close()");
    assertThat(g.held()).hasToString("9");
    lease.close();
    assertThat(g.held().isEmpty()).isTrue();
    assertThat(g.seats()).isEmpty();
    assertThatThrownBy(g::join).hasMessageContaining("c: closed");
  }

  @Test
  void shouldKeepAClosedGroupsCpuWhileAnyThreadIsStillBoundToTheSeat() {
    CpuGroup g = kit().group("r").pool(CpuSet.of(6)).build();
    Seat seat = g.join();
    CpuLease old = seat.bind(); // a loop's old thread, still finishing
    CpuLease resumed = seat.bind(); // and the thread that resumed it
    g.close();

    old.close();
    assertThat(g.held()).hasToString("6");
    resumed.close();

    assertThat(g.held().isEmpty()).isTrue();
  }

  @Test
  void shouldCloseTheSeatWithTheLeaseOfAOneThreadMember() {
    CpuGroup g = kit().group("o").pool(CpuSet.of(4)).build();

    g.join().bindOnce().close();

    assertThat(g.seats()).isEmpty();
    assertThat(g.held().isEmpty()).isTrue();
  }

  @Test
  void shouldConfineAMemberWithoutACpuToTheUnpinnedMask() {
    CpuGroup g = kit().group("m").pool(CpuSet.of(4)).unpinnedMask(CpuSet.of(0, 1)).build();
    g.join();
    backend.setAffinity(0, CpuSet.of(4)); // as a pinned creator's thread would inherit

    try (CpuLease lease = g.join().bind()) {
      assertThat(lease.status()).isEqualTo(LeaseStatus.UNPINNED);
      assertThat(backend.getAffinity(0)).hasToString("0-1");
    }
  }

  @Test
  void shouldKeepAnUnpinnedMemberOffTheIsolatedCpusByDefaultAndRestoreItsMaskOnClose() {
    assertThat(E5.isolatedCpus()).hasToString("19-23"); // the seed machine: isolcpus=19-23
    CpuGroup g = kit().group("d").pool(CpuSet.of(20)).build();
    g.join();
    backend.setAffinity(0, CpuSet.of(20)); // as a pinned creator's thread would inherit

    CpuLease lease = g.join().bind();
    assertThat(lease.status()).isEqualTo(LeaseStatus.UNPINNED);
    assertThat(backend.getAffinity(0)).hasToString("0-18");
    lease.close();

    assertThat(backend.getAffinity(0)).hasToString("20");
  }

  @Test
  void shouldSayFailedAndNotStayBoundWhenTheThreadIdCannotBeRead() {
    AffinityBackend noTid =
        new ForwardingAffinityBackend(backend) {
          @Override
          public int currentThreadId() {
            throw new IllegalStateException("no gettid and no /proc");
          }

          @Override
          public int currentCpu() {
            return -1;
          }
        };
    AffinityKit k = AffinityKit.create(E5, noTid, CpuReservations.inDirectory(locks));
    CpuGroup g = k.group("t").pool(CpuSet.of(4)).build();
    Seat seat = g.join();

    CpuLease lease = seat.bind();

    assertThat(lease.status()).isEqualTo(LeaseStatus.FAILED);
    assertThat(lease.reason()).contains("no gettid and no /proc");
    lease.close();
    assertThat(seat.isBound()).isFalse();
    g.close();
    assertThat(g.held().isEmpty()).isTrue();
  }

  @Test
  void shouldNeverLeaveABoundThreadOnACpuItsClosingGroupFreed() throws Exception {
    for (int i = 0; i < 200; i++) {
      CpuGroup g = kit().group("r").pool(CpuSet.of(4)).build();
      Seat seat = g.join();
      java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
      AtomicReference<CpuLease> bound = new AtomicReference<>();
      Thread t =
          new Thread(
              () -> {
                try {
                  go.await();
                  bound.set(seat.bind());
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              });
      t.start();
      go.countDown();
      g.close();
      t.join(10_000);

      CpuLease lease = bound.get();
      if (lease.isBound()) { // bound before the close looked: the CPU stays held until it lets go
        assertThat(g.held()).as("round %d", i).isEqualTo(CpuSet.of(4));
      }
      lease.close();
      assertThat(g.held().isEmpty()).as("round %d", i).isTrue();
    }
  }

  @Test
  void shouldSayFailedWithTheKernelsReasonAndKeepTheCpuWhenBindingIsRefused() {
    CpuGroup g = kit().group("e").pool(CpuSet.of(4)).build();
    Seat seat = g.join();
    backend.failNextSetAffinity(22);

    try (CpuLease lease = seat.bind()) {
      assertThat(lease.status()).isEqualTo(LeaseStatus.FAILED);
    }

    assertThat(seat.status()).isEqualTo(LeaseStatus.FAILED);
    assertThat(seat.cpu()).isEqualTo(-1);
    assertThat(seat.reason()).contains("EINVAL");
    seat.bind().close(); // a later thread may succeed
    assertThat(seat.status()).isEqualTo(LeaseStatus.PINNED);
  }

  @Test
  void shouldPinNothingAndLeaveMasksAloneWhenOff() {
    CpuGroup g = kit().group("off").unpinned("pinning off").unpinnedMask(CpuSet.empty()).build();

    Seat seat = g.join();
    try (CpuLease lease = seat.bind()) {
      assertThat(lease.status()).isEqualTo(LeaseStatus.UNPINNED);
      assertThat(lease.reason()).isEqualTo("pinning off");
    }

    assertThat(seat.tid()).isPositive();
    assertThat(g.held().isEmpty()).isTrue();
  }

  @Test
  void shouldSayUnsupportedWhenThePlatformCannotPin() {
    AffinityKit kit =
        AffinityKit.create(
            E5,
            AffinityBackend.unsupported("test: no pinning"),
            CpuReservations.inDirectory(locks));

    Seat seat = kit.group("n").build().join();

    assertThat(seat.status()).isEqualTo(LeaseStatus.UNSUPPORTED);
    assertThat(seat.reason()).isEqualTo("test: no pinning");
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
  }

  @Test
  void shouldRejectAPoolOutsideTheProcess() {
    assertThatThrownBy(() -> kit().group("p").pool(CpuSet.of(30)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("p: pool: 30 (expected: CPUs this process may use: 0-23)");
  }

  @Test
  void shouldPutMemberIOnExplicitCpuISharingACpuNamedTwice() {
    CpuGroup g = kit().group("x").cpus(5, 3, 5).build();

    List<Seat> seats = g.joinAll(3);

    assertThat(seats).extracting(Seat::member).containsExactly("x-0", "x-1", "x-2");
    assertThat(seats).extracting(Seat::cpu).containsExactly(5, 3, 5);
    assertThat(seats)
        .extracting(Seat::status)
        .containsExactly(LeaseStatus.PINNED, LeaseStatus.PINNED, LeaseStatus.SHARED);
    assertThat(seats.get(0).reason()).isEqualTo("explicit cpu 5");
    assertThat(g.held()).hasToString("3,5");
  }

  @Test
  void shouldRefuseAJoinBeyondTheExplicitCpusNamingTheCount() {
    CpuGroup g = kit().group("x").cpus(5).build();
    g.join();

    assertThatThrownBy(g::join)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("x: members: 2 (expected: at most 1, one per explicit cpu of [5])");
  }

  @Test
  void shouldRejectExplicitCpusOutsideTheProcessAtBuild() {
    assertThatThrownBy(() -> kit().group("x").cpus(1, 4096).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "x: cpus: [1, 4096] (expected: 2 CPUs, one per member, among the CPUs this process"
                + " may use: 0-23)");
  }

  @Test
  void shouldRejectJoiningAllWhenTheCountIsNotTheExplicitCpus() {
    CpuGroup g = kit().group("x").cpus(1, 2).build();

    assertThatThrownBy(() -> g.joinAll(3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "x: cpus: [1, 2] (expected: 3 CPUs, one per member, among the CPUs this process"
                + " may use: 0-23)");
    assertThatThrownBy(() -> g.joinAll(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("x: members: 0 (expected: > 0)");
    assertThat(g.seats()).isEmpty();
  }

  @Test
  void shouldCloseTheSeatsItTookWhenOneMemberCannotJoin() {
    AffinityKit kit = kit();
    CpuGroup g = kit.group("f").pool(CpuSet.of(20, 21)).runOut(RunOutPolicy.FAIL).build();

    assertThatThrownBy(() -> g.joinAll(3)).hasMessageContaining("run-out policy FAIL");

    assertThat(g.seats()).isEmpty();
    assertThat(g.held().isEmpty()).isTrue();
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
  }

  @Test
  void shouldTakeOpenHftStrategiesAndVarargsPlacementsAsTheListForm() {
    CpuGroup byStrategy =
        kit()
            .group("s")
            .strategies(AffinityStrategies.DIFFERENT_CORE, AffinityStrategies.ANY)
            .build();
    CpuGroup byVarargs =
        kit().group("v").placements(Placement.DIFFERENT_CORE, Placement.ANY).build();

    List<Integer> strategyCpus = byStrategy.joinAll(3).stream().map(Seat::cpu).toList();
    byStrategy.close();
    List<Integer> varargCpus = byVarargs.joinAll(3).stream().map(Seat::cpu).toList();

    assertThat(varargCpus).isEqualTo(strategyCpus);
    assertThat(varargCpus.stream().map(c -> E5.topology().cpu(c).core()).distinct()).hasSize(3);
  }

  @Test
  void shouldRunATaskBoundAndKeepTheSeatForTheNextThread() {
    CpuGroup g = kit().group("b").pool(CpuSet.of(7)).build();
    Seat seat = g.join();
    CpuSet before = backend.getAffinity(0);
    AtomicReference<CpuSet> during = new AtomicReference<>();

    seat.bound(() -> during.set(backend.getAffinity(0))).run();

    assertThat(during.get()).hasToString("7");
    assertThat(backend.getAffinity(0)).isEqualTo(before);
    assertThat(seat.isBound()).isFalse();
    assertThat(g.held()).hasToString("7");
    assertThat(seat.status()).isEqualTo(LeaseStatus.PINNED);
  }

  @Test
  void shouldReleaseTheSeatWhenAOneThreadTaskEndsEvenByThrowing() {
    AffinityKit kit = kit();
    CpuGroup g = kit.group("o").pool(CpuSet.of(7)).build();
    Seat seat = g.join();
    Runnable failing =
        seat.boundOnce(
            () -> {
              throw new IllegalStateException("task failed");
            });

    assertThatThrownBy(failing::run).hasMessage("task failed");

    assertThat(seat.status()).isEqualTo(LeaseStatus.RELEASED);
    assertThat(g.seats()).isEmpty();
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
  }

  @Test
  void shouldReportWhetherTheGroupIsOff() {
    assertThat(kit().group("u").unpinned("off").build().isUnpinned()).isTrue();
    assertThat(kit().group("k").build().isUnpinned()).isFalse();
  }

  @Test
  void shouldApplyTheRunOutPolicyToAnExplicitCpuAnotherHolds() {
    AffinityKit kit = kit();
    Reservation other = kit.reservations().tryReserve(5).orElseThrow();
    CpuGroup g = kit.group("t").cpus(5).build();

    Seat seat = g.join();

    assertThat(seat.status()).isEqualTo(LeaseStatus.UNPINNED);
    assertThat(seat.reason()).contains("no CPU of pool");
    other.close();
  }
}
