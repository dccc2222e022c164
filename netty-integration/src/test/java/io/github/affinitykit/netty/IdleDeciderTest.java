package io.github.affinitykit.netty;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.testkit.Fixtures;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The AUTO rule and what transports cannot do, on the seed machine's model: no threads. */
class IdleDeciderTest {
  private static final HostCpus E5 = HostCpus.probe(Fixtures.root(Fixtures.E5)); // isolcpus=19-23
  private static final CpuSet NONE = CpuSet.empty();

  private static LoopAssignment loop(String group, int index, int cpu, LeaseStatus status) {
    return new LoopAssignment(group, index, cpu, status, "planned", "", -1, 0, false);
  }

  private static LoopIdle decide(
      IdlePolicy p, Transport t, LoopAssignment worker, List<LoopAssignment> all, CpuSet ok) {
    return IdleDecider.decide(p, t, E5, List.of(worker), all, ok, ok).get(0);
  }

  @Test
  void shouldBlockOnAnIsolatedHyperThreadWhoseCoreMateRunsGeneralWork() {
    LoopAssignment w = loop("worker", 0, 20, LeaseStatus.PINNED);

    LoopIdle d = decide(IdlePolicy.AUTO, Transport.EPOLL, w, List.of(w), NONE);

    assertThat(d.mode()).isEqualTo(IdlePolicy.BLOCK);
    assertThat(d.honoured()).isTrue();
    assertThat(d.reason()).contains("core-mate 8 is not");
  }

  @Test
  void shouldSpinThenBlockWhereTheAuditFoundTheCpuExclusive() {
    LoopAssignment w = loop("worker", 0, 20, LeaseStatus.PINNED);

    LoopIdle d = decide(IdlePolicy.AUTO, Transport.NIO, w, List.of(w), CpuSet.of(20));

    assertThat(d.mode()).isEqualTo(IdlePolicy.SPIN_THEN_BLOCK);
    assertThat(d.reason()).isEqualTo("audited EXCLUSIVE, alone on core 8,20");
    assertThat(d)
        .hasToString(
            "worker-0 cpu 20 idle SPIN_THEN_BLOCK (auto requested: audited EXCLUSIVE, alone on"
                + " core 8,20)");
  }

  @Test
  void shouldBlockWhenAnotherLoopOfTheServerSharesTheCoreOrTheLoopIsNotPinnedAlone() {
    LoopAssignment w = loop("worker", 0, 20, LeaseStatus.PINNED);
    LoopAssignment boss = loop("boss", 0, 8, LeaseStatus.PINNED);
    LoopAssignment shared = loop("worker", 1, 21, LeaseStatus.SHARED);
    LoopAssignment unpinned = loop("worker", 2, -1, LeaseStatus.UNPINNED);
    CpuSet ok = CpuSet.parse("20-21");

    LoopIdle mate = decide(IdlePolicy.AUTO, Transport.EPOLL, w, List.of(boss, w), ok);
    List<LoopIdle> rest =
        IdleDecider.decide(
            IdlePolicy.AUTO,
            Transport.EPOLL,
            E5,
            List.of(shared, unpinned),
            List.of(shared, unpinned),
            ok,
            ok);

    assertThat(mate.mode()).isEqualTo(IdlePolicy.BLOCK);
    assertThat(mate.reason()).isEqualTo("core 8,20 also runs boss-0");
    assertThat(rest).extracting(LoopIdle::mode).containsOnly(IdlePolicy.BLOCK);
    assertThat(rest.get(0).reason()).startsWith("loop SHARED (planned)");
    assertThat(rest.get(1).reason()).startsWith("loop UNPINNED (planned)");
  }

  @Test
  void shouldHonourAnExplicitPolicyAndSayWhatPlacementAloneWouldChoose() {
    LoopAssignment w = loop("worker", 0, 3, LeaseStatus.PINNED);

    LoopIdle d = decide(IdlePolicy.BUSY_POLL, Transport.NIO, w, List.of(w), NONE);

    assertThat(d.mode()).isEqualTo(IdlePolicy.BUSY_POLL);
    assertThat(d.honoured()).isTrue();
    assertThat(d.reason())
        .startsWith("as asked; the placement rule alone would choose BLOCK: alone on core 3")
        .contains("not audited");
  }

  @Test
  void shouldReportThatIoUringCannotSpinAndBlockInstead() {
    LoopAssignment w = loop("worker", 0, 20, LeaseStatus.PINNED);

    LoopIdle asked = decide(IdlePolicy.SPIN_THEN_BLOCK, Transport.IO_URING, w, List.of(w), NONE);
    LoopIdle auto = decide(IdlePolicy.AUTO, Transport.IO_URING, w, List.of(w), CpuSet.of(20));
    LoopIdle block = decide(IdlePolicy.BLOCK, Transport.IO_URING, w, List.of(w), NONE);

    assertThat(asked.mode()).isEqualTo(IdlePolicy.BLOCK);
    assertThat(asked.honoured()).isFalse();
    assertThat(asked.reason())
        .startsWith("SPIN_THEN_BLOCK wanted, but")
        .contains("io_uring handler has no SelectStrategy hook");
    assertThat(asked.toString()).contains("NOT HONOURED");
    assertThat(auto.honoured()).isFalse();
    assertThat(block.honoured()).isTrue();
    IdleReport r = new IdleReport(IdlePolicy.SPIN_THEN_BLOCK, SpinLimit.DEFAULT, List.of(asked));
    assertThat(r.headline())
        .isEqualTo(
            "idle policy spin-then-block, spin limit 50us, NOT HONOURED on every loop (see below)");
  }
}
