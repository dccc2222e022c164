package io.github.affinitykit.netty;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.WaitAdvice;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.testkit.Fixtures;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How a requested {@link WaitPolicy} and a transport translate core's wait rule (whose own cases
 * {@code WaitAdviceTest} covers) into each worker loop's mode, and the report: on the seed
 * machine's model, no threads.
 */
class WaitPolicyTest {
  private static final HostCpus E5 = HostCpus.probe(Fixtures.root(Fixtures.E5)); // isolcpus=19-23
  private static final CpuSet NONE = CpuSet.empty();

  private static LoopAssignment loop(String group, int index, int cpu, LeaseStatus status) {
    return new LoopAssignment(group, index, cpu, status, "planned", "", -1, 0, false);
  }

  /** A factory with one loop, decided for {@code workers} among {@code all}. */
  private static WaitSelectStrategyFactory decide(
      WaitPolicy p,
      Transport t,
      List<LoopAssignment> workers,
      List<LoopAssignment> all,
      CpuSet ok) {
    WaitSelectStrategyFactory f = WaitSelectStrategyFactory.of(p, SpinLimit.DEFAULT);
    workers.forEach(w -> f.newSelectStrategy());
    f.decide(E5, t, workers, all, ok, ok);
    return f;
  }

  private static WaitSelectStrategyFactory decide(
      WaitPolicy p, Transport t, LoopAssignment w, CpuSet ok) {
    return decide(p, t, List.of(w), List.of(w), ok);
  }

  @Test
  void shouldSpinThenBlockUnderAutoOnlyWhereTheRuleSaysSpin() {
    LoopAssignment w = loop("worker", 0, 20, LeaseStatus.PINNED);

    WaitSelectStrategyFactory spin = decide(WaitPolicy.AUTO, Transport.NIO, w, CpuSet.of(20));
    WaitSelectStrategyFactory block = decide(WaitPolicy.AUTO, Transport.EPOLL, w, NONE);

    assertThat(spin.mode(0)).isEqualTo(WaitPolicy.SPIN_THEN_BLOCK);
    assertThat(spin.advice())
        .extracting(WaitAdvice::reason)
        .containsExactly(WaitAdvice.Reason.AUDITED_EXCLUSIVE);
    assertThat(spin.report())
        .containsExactly(
            "wait policy auto, spin limit 50us",
            "worker-0 cpu 20 idle SPIN_THEN_BLOCK (auto requested: audited EXCLUSIVE, alone on"
                + " core 8,20)");
    assertThat(block.mode(0)).isEqualTo(WaitPolicy.BLOCK);
    assertThat(block.honoured()).isTrue();
    assertThat(block.report().get(1)).contains("core-mate 8 is not");
  }

  @Test
  void shouldBlockUnderAutoBesideAnotherLoopOfTheServerOrWithoutAPinnedCpu() {
    LoopAssignment w = loop("worker", 0, 20, LeaseStatus.PINNED);
    LoopAssignment boss = loop("boss", 0, 8, LeaseStatus.PINNED);
    LoopAssignment shared = loop("worker", 1, 21, LeaseStatus.SHARED);
    LoopAssignment unpinned = loop("worker", 2, -1, LeaseStatus.UNPINNED);
    CpuSet ok = CpuSet.parse("20-21");

    WaitSelectStrategyFactory f =
        decide(
            WaitPolicy.AUTO,
            Transport.EPOLL,
            List.of(w, shared, unpinned),
            List.of(boss, w, shared, unpinned),
            ok);

    assertThat(List.of(f.mode(0), f.mode(1), f.mode(2))).containsOnly(WaitPolicy.BLOCK);
    assertThat(f.advice())
        .extracting(WaitAdvice::reason)
        .containsExactly(
            WaitAdvice.Reason.NEIGHBOUR_ON_CORE,
            WaitAdvice.Reason.NOT_PINNED,
            WaitAdvice.Reason.NOT_PINNED);
    assertThat(f.report().get(1)).endsWith("(auto requested: core 8,20 also runs boss-0)");
  }

  @Test
  void shouldHonourAnExplicitPolicyAndSayWhatPlacementAloneWouldChoose() {
    LoopAssignment w = loop("worker", 0, 3, LeaseStatus.PINNED);

    WaitSelectStrategyFactory d = decide(WaitPolicy.BUSY_POLL, Transport.NIO, w, NONE);

    assertThat(d.mode(0)).isEqualTo(WaitPolicy.BUSY_POLL);
    assertThat(d.honoured()).isTrue();
    assertThat(d.report().get(0)).isEqualTo("wait policy busy-poll");
    assertThat(d.report().get(1))
        .contains("(busy-poll requested: as asked; the placement rule alone would choose BLOCK:")
        .contains("alone on core 3", "not audited");
  }

  @Test
  void shouldReportThatIoUringCannotSpinAndBlockInstead() {
    LoopAssignment w = loop("worker", 0, 20, LeaseStatus.PINNED);

    WaitSelectStrategyFactory asked =
        decide(WaitPolicy.SPIN_THEN_BLOCK, Transport.IO_URING, w, NONE);
    WaitSelectStrategyFactory auto = decide(WaitPolicy.AUTO, Transport.IO_URING, w, CpuSet.of(20));
    WaitSelectStrategyFactory block = decide(WaitPolicy.BLOCK, Transport.IO_URING, w, NONE);

    assertThat(asked.mode(0)).isEqualTo(WaitPolicy.BLOCK);
    assertThat(asked.honoured()).isFalse();
    assertThat(asked.report())
        .first()
        .isEqualTo(
            "wait policy spin-then-block, spin limit 50us, NOT HONOURED on every loop (see below)");
    assertThat(asked.report().get(1))
        .contains(
            "idle BLOCK (NOT HONOURED, spin-then-block requested: SPIN_THEN_BLOCK wanted, but")
        .contains("io_uring handler has no SelectStrategy hook");
    assertThat(auto.honoured()).isFalse();
    assertThat(block.honoured()).isTrue();
    assertThat(block.report().get(1)).endsWith("(block requested: Netty's default)");
  }
}
