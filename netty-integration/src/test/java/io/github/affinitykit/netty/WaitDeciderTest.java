package io.github.affinitykit.netty;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.testkit.Fixtures;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The AUTO rule and what transports cannot do, on the seed machine's model: no threads. */
class WaitDeciderTest {
  private static final HostCpus E5 = HostCpus.probe(Fixtures.root(Fixtures.E5)); // isolcpus=19-23
  private static final CpuSet NONE = CpuSet.empty();

  private static LoopAssignment loop(String group, int index, int cpu, LeaseStatus status) {
    return new LoopAssignment(group, index, cpu, status, "planned", "", -1, 0, false);
  }

  private static LoopWait decide(
      WaitPolicy p, Transport t, LoopAssignment worker, List<LoopAssignment> all, CpuSet ok) {
    return WaitDecider.decide(p, t, E5, List.of(worker), all, ok, ok).get(0);
  }

  @Test
  void shouldBlockOnAnIsolatedHyperThreadWhoseCoreMateRunsGeneralWork() {
    LoopAssignment w = loop("worker", 0, 20, LeaseStatus.PINNED);

    LoopWait d = decide(WaitPolicy.AUTO, Transport.EPOLL, w, List.of(w), NONE);

    assertThat(d.mode()).isEqualTo(WaitPolicy.BLOCK);
    assertThat(d.honoured()).isTrue();
    assertThat(d.reason()).contains("core-mate 8 is not");
  }

  @Test
  void shouldSpinThenBlockWhereTheAuditFoundTheCpuExclusive() {
    LoopAssignment w = loop("worker", 0, 20, LeaseStatus.PINNED);

    LoopWait d = decide(WaitPolicy.AUTO, Transport.NIO, w, List.of(w), CpuSet.of(20));

    assertThat(d.mode()).isEqualTo(WaitPolicy.SPIN_THEN_BLOCK);
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

    LoopWait mate = decide(WaitPolicy.AUTO, Transport.EPOLL, w, List.of(boss, w), ok);
    List<LoopWait> rest =
        WaitDecider.decide(
            WaitPolicy.AUTO,
            Transport.EPOLL,
            E5,
            List.of(shared, unpinned),
            List.of(shared, unpinned),
            ok,
            ok);

    assertThat(mate.mode()).isEqualTo(WaitPolicy.BLOCK);
    assertThat(mate.reason()).isEqualTo("core 8,20 also runs boss-0");
    assertThat(rest).extracting(LoopWait::mode).containsOnly(WaitPolicy.BLOCK);
    assertThat(rest.get(0).reason()).startsWith("loop SHARED (planned)");
    assertThat(rest.get(1).reason()).startsWith("loop UNPINNED (planned)");
  }

  @Test
  void shouldHonourAnExplicitPolicyAndSayWhatPlacementAloneWouldChoose() {
    LoopAssignment w = loop("worker", 0, 3, LeaseStatus.PINNED);

    LoopWait d = decide(WaitPolicy.BUSY_POLL, Transport.NIO, w, List.of(w), NONE);

    assertThat(d.mode()).isEqualTo(WaitPolicy.BUSY_POLL);
    assertThat(d.honoured()).isTrue();
    assertThat(d.reason())
        .startsWith("as asked; the placement rule alone would choose BLOCK: alone on core 3")
        .contains("not audited");
  }

  @Test
  void shouldReportThatIoUringCannotSpinAndBlockInstead() {
    LoopAssignment w = loop("worker", 0, 20, LeaseStatus.PINNED);

    LoopWait asked = decide(WaitPolicy.SPIN_THEN_BLOCK, Transport.IO_URING, w, List.of(w), NONE);
    LoopWait auto = decide(WaitPolicy.AUTO, Transport.IO_URING, w, List.of(w), CpuSet.of(20));
    LoopWait block = decide(WaitPolicy.BLOCK, Transport.IO_URING, w, List.of(w), NONE);

    assertThat(asked.mode()).isEqualTo(WaitPolicy.BLOCK);
    assertThat(asked.honoured()).isFalse();
    assertThat(asked.reason())
        .startsWith("SPIN_THEN_BLOCK wanted, but")
        .contains("io_uring handler has no SelectStrategy hook");
    assertThat(asked.toString()).contains("NOT HONOURED");
    assertThat(auto.honoured()).isFalse();
    assertThat(block.honoured()).isTrue();
    WaitReport r = new WaitReport(WaitPolicy.SPIN_THEN_BLOCK, SpinLimit.DEFAULT, List.of(asked));
    assertThat(r.headline())
        .isEqualTo(
            "wait policy spin-then-block, spin limit 50us, NOT HONOURED on every loop (see below)");
  }
}
