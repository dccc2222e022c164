package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.WaitAdvice.Reason;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.FakeHost;
import io.github.affinitykit.core.testkit.FixtureHosts;
import io.github.affinitykit.core.testkit.Fixtures;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract of the one wait rule, which Netty's loops, the Disruptor's strategy and Agrona's
 * idle strategy only translate: the thread's own state, its neighbours on the core, the host and
 * the audit, first match wins. On host models of machines this one is not: deterministic.
 */
class WaitAdviceTest {
  private static final CpuSet NONE = CpuSet.empty();
  private static final HostCpus E5 = HostCpus.probe(Fixtures.root(Fixtures.E5)); // isolcpus=19-23

  @TempDir Path tmp;

  private static Assignment at(String name, int cpu, LeaseStatus status) {
    return new Assignment(name, -1, cpu, status, "planned");
  }

  private static WaitAdvice alone(HostCpus host, int cpu, CpuSet exclusive, CpuSet audited) {
    Assignment self = at("t", cpu, LeaseStatus.PINNED);
    return WaitAdvice.decide(host, self, List.of(self), exclusive, audited);
  }

  @Test
  void shouldNotSpinOnAnIsolatedHyperThreadWhoseCoreMateIsNotIsolated() {
    WaitAdvice a = alone(E5, 20, NONE, NONE); // sibling of 20 is 8

    assertThat(a.reason()).isEqualTo(Reason.SIBLING_NOT_ISOLATED);
    assertThat(a.spin()).isFalse();
    assertThat(a.text()).contains("core-mate 8 is not");
  }

  @Test
  void shouldSpinOnAnIsolatedCpuWhoseWholeCoreIsIsolated() {
    HostCpus h = FakeHost.create(tmp, 8, 2).isolated("2-3,6-7").probe(); // cores {2,6} {3,7}

    WaitAdvice a = alone(h, 6, NONE, NONE);

    assertThat(a.reason()).isEqualTo(Reason.ISOLATED_CORE);
    assertThat(a.spin()).isTrue();
    assertThat(a.text()).isEqualTo("isolated, with its whole core 2,6");
    assertThat(a)
        .hasToString("t on cpu 6: spin, ISOLATED_CORE (isolated, with its whole core 2,6)");
  }

  @Test
  void shouldSpinOnlyWhereTheAuditFoundTheCpuExclusive() {
    HostCpus h = FakeHost.create(tmp, 2, 1).probe(); // this machine's shape: 2 CPUs, no SMT

    WaitAdvice exclusive = alone(h, 1, CpuSet.of(1), CpuSet.of(1));
    WaitAdvice shared = alone(h, 1, NONE, CpuSet.of(1));
    WaitAdvice unaudited = alone(h, 1, NONE, NONE);

    assertThat(exclusive.reason()).isEqualTo(Reason.AUDITED_EXCLUSIVE);
    assertThat(exclusive.spin()).isTrue();
    assertThat(shared.reason()).isEqualTo(Reason.AUDITED_NOT_EXCLUSIVE);
    assertThat(shared.text()).contains("the audit found it INTRUDED");
    assertThat(unaudited.reason()).isEqualTo(Reason.NOT_AUDITED);
    assertThat(unaudited.text()).contains("not isolated", "not audited");
    assertThat(shared.spin()).isFalse();
    assertThat(unaudited.spin()).isFalse();
  }

  @Test
  void shouldTrustAnAuditOverAnIsolatedHyperThreadsBusyCoreMate() {
    assertThat(alone(E5, 20, CpuSet.of(20), CpuSet.of(20)).reason())
        .isEqualTo(Reason.AUDITED_EXCLUSIVE);
  }

  @Test
  void shouldBackOffWhenAnotherThreadOfOursRunsOnTheCpuOrItsSibling() {
    Assignment w = at("worker-0", 20, LeaseStatus.PINNED);
    CpuSet ok = CpuSet.parse("8,20");

    WaitAdvice sibling =
        WaitAdvice.decide(E5, w, List.of(at("boss-0", 8, LeaseStatus.PINNED), w), ok, ok);
    WaitAdvice same = WaitAdvice.decide(E5, w, List.of(at("x", 20, LeaseStatus.SHARED)), ok, ok);
    WaitAdvice away =
        WaitAdvice.decide(
            E5, w, List.of(at("far", 21, LeaseStatus.PINNED), at("u", -1, LeaseStatus.UNPINNED)));

    assertThat(sibling.reason()).isEqualTo(Reason.NEIGHBOUR_ON_CORE);
    assertThat(sibling.text()).isEqualTo("core 8,20 also runs boss-0");
    assertThat(same.reason()).isEqualTo(Reason.NEIGHBOUR_ON_CORE);
    assertThat(sibling.spin() || same.spin()).isFalse();
    assertThat(away.reason())
        .as("no neighbour: the host decides")
        .isEqualTo(Reason.SIBLING_NOT_ISOLATED);
    assertThat(sibling.reason().ownCore()).isFalse();
    assertThat(away.reason().ownCore()).isTrue();
  }

  @Test
  void shouldBackOffWithoutACpuOfItsOwnOrWhileItsLeaseIsMovedOrLost() {
    CpuSet ok = CpuSet.of(20);

    WaitAdvice none = WaitAdvice.decide(E5, at("t", -1, LeaseStatus.UNPINNED), List.of(), ok, ok);
    WaitAdvice shared = WaitAdvice.decide(E5, at("t", 20, LeaseStatus.SHARED), List.of(), ok, ok);
    WaitAdvice moved = WaitAdvice.decide(E5, at("t", 20, LeaseStatus.MOVED), List.of(), ok, ok);
    WaitAdvice lost = WaitAdvice.decide(E5, at("t", 20, LeaseStatus.LOST), List.of(), ok, ok);

    assertThat(none.reason()).isEqualTo(Reason.NOT_PINNED);
    assertThat(none.text()).startsWith("not pinned (UNPINNED: planned)");
    assertThat(none).hasToString("t with no CPU: back off, NOT_PINNED (" + none.text() + ")");
    assertThat(shared.reason()).isEqualTo(Reason.NOT_PINNED);
    assertThat(shared.text()).startsWith("lease SHARED (planned)");
    assertThat(moved.reason()).isEqualTo(Reason.NOT_INTACT);
    assertThat(moved.text()).startsWith("lease MOVED (planned): backs off");
    assertThat(lost.reason()).isEqualTo(Reason.NOT_INTACT);
    assertThat(List.of(none, shared, moved, lost)).noneMatch(WaitAdvice::spin);
  }

  @Test
  @Timeout(30)
  void shouldReadALeaseStateAndTheKitsOtherLeasesAsNeighbours() throws Exception {
    HostCpus host = FixtureHosts.isolated(tmp.resolve("host"), 4, 2, "1,3"); // core 1,3 isolated
    AffinityKit kit =
        AffinityKit.create(
            host,
            new RecordingAffinityBackend(CpuSet.range(0, 3)),
            CpuReservations.inDirectory(tmp.resolve("locks")));

    try (CpuLease lease = kit.pinCurrentThread(1)) {
      WaitAdvice alone = WaitAdvice.decide(host, lease, kit.leases());
      kit.backend().setAffinity(lease.tid(), CpuSet.range(0, 3)); // a cpuset widened
      assertThat(lease.check()).isEqualTo(LeaseStatus.MOVED);
      WaitAdvice moved = WaitAdvice.decide(host, lease, kit.leases());

      assertThat(alone.reason()).isEqualTo(Reason.ISOLATED_CORE);
      assertThat(alone.thread()).isEqualTo(Thread.currentThread().getName());
      assertThat(moved.reason()).isEqualTo(Reason.NOT_INTACT);
    }
  }

  @Test
  void shouldRefuseAnExclusiveSetOutsideTheAuditedOneAndUnknownCpus() {
    HostCpus h = FakeHost.create(tmp, 2, 1).probe();

    assertThatThrownBy(() -> alone(h, 1, CpuSet.of(1), NONE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("auditedExclusive: 1 (expected: within audited )");
    assertThatThrownBy(() -> alone(h, 7, NONE, NONE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("cpu: 7 (expected: one of 0-1");
    assertThatThrownBy(() -> new WaitAdvice("t", -2, Reason.NOT_AUDITED, "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cpu: -2 (expected: >= -1)");
  }
}
