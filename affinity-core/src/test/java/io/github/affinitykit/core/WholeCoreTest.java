package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.placement.RunOutPolicy;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.reservation.OtherProcess;
import io.github.affinitykit.core.reservation.Reservation;
import io.github.affinitykit.core.reservation.ReservationResult;
import io.github.affinitykit.core.reservation.ReservationStatus;
import io.github.affinitykit.core.testkit.FakeHost;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole-core seats ({@link CpuGroupBuilder#wholeCores}) on a fixture of 8 CPUs in 4 SMT cores
 * ({@code {0,4} {1,5} {2,6} {3,7}}) with a private lock directory: every CPU of a core reserved,
 * the thread on the first, a core with a sibling held elsewhere skipped, everything released on
 * close, the run-out policy once no whole core is left, and a host without SMT.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(30)
class WholeCoreTest {
  @TempDir Path root;

  private final RecordingAffinityBackend backend = new RecordingAffinityBackend(CpuSet.range(0, 7));

  private AffinityKit kit(int cpus, int smt) {
    return AffinityKit.create(
        FakeHost.create(root.resolve("host"), cpus, smt).probe(),
        backend,
        CpuReservations.inDirectory(root.resolve("locks")));
  }

  private CpuReservations otherProcess() {
    return OtherProcess.on(root.resolve("locks"));
  }

  private static CpuGroup whole(AffinityKit kit, String pool, RunOutPolicy runOut) {
    return kit.group("w").pool(CpuSet.parse(pool)).wholeCores(true).runOut(runOut).build();
  }

  @Test
  void shouldReserveEveryCpuOfTheCoreAndPinTheThreadToItsFirst() {
    AffinityKit kit = kit(8, 2);
    CpuGroup g = whole(kit, "0-7", RunOutPolicy.UNPINNED);

    Seat first = g.join();
    Seat second = g.join();
    CpuLease lease = first.bind();

    assertThat(List.of(first.cpu(), second.cpu())).containsExactly(0, 1);
    assertThat(first.reason()).isEqualTo("first free CPU; whole core 0,4");
    assertThat(second.reason()).isEqualTo("ANY; whole core 1,5");
    assertThat(g.held()).isEqualTo(CpuSet.parse("0-1,4-5"));
    assertThat(kit.reservations().reservedHere()).isEqualTo(CpuSet.parse("0-1,4-5"));
    assertThat(lease.status()).isEqualTo(LeaseStatus.PINNED);
    assertThat(lease.cpu()).isZero();
    assertThat(lease.cpus()).isEqualTo(CpuSet.of(0, 4));
    assertThat(backend.maskOf(lease.tid())).isEqualTo(CpuSet.of(0));
    assertThat(otherProcess().tryReserve(4).status())
        .isEqualTo(ReservationStatus.HELD_BY_OTHER_PROCESS);

    lease.close();
    g.close();

    assertThat(lease.cpus()).as("kept after close, as cpu()").isEqualTo(CpuSet.of(0, 4));
    assertThat(g.held()).isEqualTo(CpuSet.empty());
    assertThat(kit.reservations().reservedHere()).isEqualTo(CpuSet.empty());
    CpuReservations other = otherProcess();
    for (int cpu : CpuSet.parse("0-1,4-5").toArray()) {
      other.tryReserve(cpu).orElseThrow().close();
    }
  }

  @Test
  void shouldSkipACoreWhoseSiblingAnotherProcessHoldsAndKeepNothingOfIt() {
    AffinityKit kit = kit(8, 2);
    try (Reservation sibling = otherProcess().tryReserve(4).orElseThrow()) {
      CpuGroup g = whole(kit, "0-7", RunOutPolicy.UNPINNED);

      Seat s = g.join();

      assertThat(sibling.cpus()).isEqualTo(CpuSet.of(4));
      assertThat(s.cpu()).isEqualTo(1);
      assertThat(s.reason()).endsWith("whole core 1,5");
      assertThat(kit.reservations().reservedHere()).isEqualTo(CpuSet.of(1, 5));
      ReservationResult refused = g.refused().get(4);
      assertThat(refused.status()).isEqualTo(ReservationStatus.HELD_BY_OTHER_PROCESS);
      assertThat(g.refused()).containsOnlyKeys(4);
      g.close();
      assertThat(kit.reservations().reservedHere()).isEqualTo(CpuSet.empty());
    }
  }

  @Test
  void shouldFollowTheRunOutPolicyOnceNoWholeCoreIsLeft() {
    AffinityKit kit = kit(8, 2);
    CpuReservations other = otherProcess();
    List<Reservation> siblings =
        List.of(
            other.tryReserve(4).orElseThrow(),
            other.tryReserve(5).orElseThrow(),
            other.tryReserve(2).orElseThrow());
    try {
      CpuGroup unpinned = whole(kit, "0-7", RunOutPolicy.UNPINNED);
      assertThat(unpinned.join().cpu()).isEqualTo(3);
      Seat out = unpinned.join();
      assertThat(out.status()).isEqualTo(LeaseStatus.UNPINNED);
      assertThat(out.reason())
          .contains("no CPU of pool 0-7 left for w-1")
          .contains("pool exhausted: no whole core of the pool is free; cpu 3,7 by this group")
          .contains("cpu 4: ")
          .contains("cpu 5: ");
      unpinned.close();

      CpuGroup shared = whole(kit, "0-7", RunOutPolicy.SHARE);
      shared.join();
      Seat second = shared.join();
      assertThat(second.status()).isEqualTo(LeaseStatus.SHARED);
      assertThat(second.cpu()).isEqualTo(3);
      shared.close();

      CpuGroup fail = whole(kit, "0-7", RunOutPolicy.FAIL);
      fail.join();
      assertThatThrownBy(fail::join).hasMessageContaining("run-out policy FAIL");
      fail.close();
      assertThat(kit.reservations().reservedHere()).isEqualTo(CpuSet.empty());
    } finally {
      siblings.forEach(Reservation::close);
    }
  }

  @Test
  void shouldTakeNoCoreHalfOutsideThePoolAndCountCoresAgainstCount() {
    AffinityKit kit = kit(8, 2);

    CpuGroup half = whole(kit, "0-3,5", RunOutPolicy.UNPINNED);
    assertThat(half.join().cpu()).isEqualTo(1);
    assertThat(half.join().reason())
        .contains("pool exhausted: no whole core of the pool is free; cpu 1,5 by this group");
    half.close();

    CpuGroup counted = kit.group("c").rule("count:1,cpus:0-7,wholecores:true").build();
    assertThat(counted.join().cpu()).isZero();
    assertThat(counted.join().reason()).contains("count:1 held: 0,4");
    counted.close();
    assertThat(kit.reservations().reservedHere()).isEqualTo(CpuSet.empty());
  }

  @Test
  void shouldHoldTheNamedCpuAndItsSiblingForAnExplicitCpu() {
    AffinityKit kit = kit(8, 2);
    CpuGroup g = kit.group("e").wholeCores(true).cpus(5, 1).build();

    Seat named = g.join();
    Seat sibling = g.join();

    assertThat(named.cpu()).isEqualTo(5);
    assertThat(named.reason()).isEqualTo("explicit cpu 5; whole core 1,5");
    assertThat(sibling.status())
        .as("the core's other CPU stays idle")
        .isEqualTo(LeaseStatus.UNPINNED);
    assertThat(sibling.reason()).contains("already reserved by this JVM");
    named.close();
    assertThat(kit.reservations().reservedHere()).isEqualTo(CpuSet.empty());
    g.close();
  }

  @Test
  void shouldBeAPlainSeatThatSaysSoWithoutSmt() {
    AffinityKit kit = kit(4, 1);
    CpuGroup g = whole(kit, "0-3", RunOutPolicy.UNPINNED);

    Seat s = g.join();
    CpuLease lease = s.bind();

    assertThat(s.cpu()).isZero();
    assertThat(s.reason()).isEqualTo("first free CPU; whole core 0 (one CPU: no SMT sibling)");
    assertThat(lease.cpus()).isEqualTo(CpuSet.of(0));
    assertThat(g.held()).isEqualTo(CpuSet.of(0));
    lease.close();
    g.close();
    assertThat(kit.reservations().reservedHere()).isEqualTo(CpuSet.empty());
  }
}
