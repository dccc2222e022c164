package io.github.affinitykit.disruptor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.WaitAdvice;
import io.github.affinitykit.core.WaitAdvice.Reason;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.placement.RunOutPolicy;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How {@link WaitChoice#advise} translates core's wait rule (whose own cases {@code WaitAdviceTest}
 * covers) into a Disruptor strategy, on host models of machines this one is not: no threads.
 */
class WaitChoiceTest {
  private static final HostCpus E5 = TestHosts.e5();

  @TempDir Path tmp;

  private static WaitChoice advise(
      HostCpus host, Pinning pinning, int consumers, String pool, String audited) {
    PipelineAssignments layout =
        TestAssignments.on(host)
            .plan(
                pinning,
                consumers,
                CpuSet.parse(pool),
                CpuSet.empty(),
                PinnedDisruptorBuilder.DEFAULT_PLACEMENTS,
                RunOutPolicy.SHARE);
    return WaitChoice.advise(host, layout, CpuSet.parse(audited));
  }

  @Test
  void shouldYieldNotSpinOnAnIsolatedHyperThreadWhoseCoreMateIsNotIsolated() {
    WaitChoice c = advise(E5, Pinning.CONSUMERS, 1, "20", "");

    assertThat(c.strategy()).isEqualTo(WaitKind.YIELDING);
    WaitAdvice consumer = c.consumers().get(0);
    assertThat(consumer.cpu()).isEqualTo(20);
    assertThat(consumer.reason()).isEqualTo(Reason.SIBLING_NOT_ISOLATED);
    assertThat(consumer.text()).contains("core-mate 8 is not");
    assertThat(c.producer().cpu()).as("unpinned, with cores free of consumers").isEqualTo(-1);
    assertThat(c.reason()).contains("consumer-0").contains("not proven exclusive");
  }

  @Test
  void shouldPlaceThreeConsumersOnDistinctIsolatedThreadsOfTheDefaultPoolAndStillYield() {
    HostCpus h = E5;
    PipelineAssignments layout =
        TestAssignments.on(h)
            .plan(
                Pinning.ALL,
                3,
                h.pool().cpus(),
                CpuSet.empty(),
                PinnedDisruptorBuilder.DEFAULT_PLACEMENTS,
                RunOutPolicy.SHARE);

    assertThat(layout.producer().cpu()).isEqualTo(19);
    assertThat(layout.consumerCpus()).hasToString("20-22");
    WaitChoice c = WaitChoice.advise(h, layout, CpuSet.empty());
    assertThat(c.strategy()).isEqualTo(WaitKind.YIELDING);
    assertThat(c.producer().reason().ownCore()).isTrue();
  }

  @Test
  void shouldSpinWhenTheAuditFoundTheConsumersCpuExclusiveAndTheProducerHasACore() {
    WaitChoice c = advise(E5, Pinning.CONSUMERS, 1, "20", "20");

    assertThat(c.strategy()).isEqualTo(WaitKind.BUSY_SPIN);
    assertThat(c.consumers().get(0).reason()).isEqualTo(Reason.AUDITED_EXCLUSIVE);
    assertThat(c.overridden()).isFalse();
  }

  @Test
  void shouldSpinOnWholeIsolatedCoresAndStopSpinningWhenTheProducerTakesASiblingThread() {
    HostCpus h = TestHosts.synthetic(tmp, 8, 2, "2-3,6-7"); // cores {2,6} and {3,7} isolated

    WaitChoice two = advise(h, Pinning.CONSUMERS, 2, "2-3,6-7", "");
    WaitChoice all = advise(h, Pinning.ALL, 1, "2-3,6-7", "");
    WaitChoice crowded = advise(h, Pinning.ALL, 2, "2-3,6-7", "");

    assertThat(two.strategy()).isEqualTo(WaitKind.BUSY_SPIN);
    assertThat(two.consumers())
        .extracting(WaitAdvice::cpu, WaitAdvice::reason)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(2, Reason.ISOLATED_CORE),
            org.assertj.core.groups.Tuple.tuple(3, Reason.ISOLATED_CORE));
    assertThat(all.strategy()).isEqualTo(WaitKind.BUSY_SPIN);
    assertThat(all.producer().cpu()).isEqualTo(2);
    assertThat(crowded.strategy()).isEqualTo(WaitKind.SLEEPING);
    assertThat(crowded.consumers().get(1).cpu()).isEqualTo(6);
    assertThat(crowded.consumers().get(1).text()).isEqualTo("core 2,6 also runs producer");
  }

  @Test
  void shouldSayTheAuditFoundACpuSharedAndRejectExclusiveCpusThatWereNotAudited() {
    HostCpus two = TestHosts.synthetic(tmp, 2, 1, "");
    PipelineAssignments layout =
        TestAssignments.on(two)
            .plan(
                Pinning.CONSUMERS,
                1,
                CpuSet.of(1),
                CpuSet.empty(),
                PinnedDisruptorBuilder.DEFAULT_PLACEMENTS,
                RunOutPolicy.SHARE);

    WaitChoice c = WaitChoice.advise(two, layout, CpuSet.empty(), CpuSet.of(1));

    assertThat(c.strategy()).isEqualTo(WaitKind.YIELDING);
    assertThat(c.consumers().get(0).reason()).isEqualTo(Reason.AUDITED_NOT_EXCLUSIVE);
    assertThatThrownBy(() -> WaitChoice.advise(two, layout, CpuSet.of(1), CpuSet.empty()))
        .hasMessage("auditedExclusive: 1 (expected: within audited )");
  }

  @Test
  void shouldBackOffWhenConsumersShareACpuOrACore() {
    WaitChoice sameCpu = advise(E5, Pinning.CONSUMERS, 2, "20", "20");
    WaitChoice sameCore = advise(E5, Pinning.CONSUMERS, 2, "8,20", "8,20");

    assertThat(sameCpu.strategy()).isEqualTo(WaitKind.SLEEPING);
    assertThat(sameCpu.consumers()).extracting(WaitAdvice::cpu).containsExactly(20, 20);
    assertThat(sameCpu.consumers())
        .extracting(WaitAdvice::reason)
        .containsOnly(Reason.NEIGHBOUR_ON_CORE);
    assertThat(sameCore.strategy()).isEqualTo(WaitKind.SLEEPING);
    assertThat(sameCore.consumers()).extracting(WaitAdvice::cpu).containsExactly(8, 20);
    assertThat(sameCore.reason()).contains("also runs consumer-1");
  }

  @Test
  void shouldBackOffWhenTheProducerSharesTheConsumersCpu() {
    WaitChoice c = advise(E5, Pinning.ALL, 1, "20", "20");

    assertThat(c.strategy()).isEqualTo(WaitKind.SLEEPING);
    assertThat(c.producer().cpu()).isEqualTo(20);
    assertThat(c.consumers().get(0).cpu()).isEqualTo(20);
    assertThat(c.consumers().get(0).reason()).isEqualTo(Reason.NEIGHBOUR_ON_CORE);
    assertThat(c.consumers().get(0).text()).isEqualTo("core 8,20 also runs producer");
  }

  @Test
  void shouldBackOffWhenTheUnpinnedProducerHasNoCoreWithoutAConsumer() {
    HostCpus two = TestHosts.synthetic(tmp, 2, 1, "");

    WaitChoice c = advise(two, Pinning.CONSUMERS, 2, "0-1", "0-1");

    assertThat(c.consumers()).extracting(WaitAdvice::reason).containsOnly(Reason.AUDITED_EXCLUSIVE);
    assertThat(c.reason()).startsWith("producer (unpinned, and every CPU it may use 0-1 runs");
    assertThat(c.strategy()).isEqualTo(WaitKind.SLEEPING);
  }

  @Test
  void shouldBackOffForUnpinnedConsumers() {
    WaitChoice c = advise(E5, Pinning.UNPINNED, 3, "19-23", "19-23");

    assertThat(c.strategy()).isEqualTo(WaitKind.SLEEPING);
    assertThat(c.consumers()).extracting(WaitAdvice::reason).containsOnly(Reason.NOT_PINNED);
    assertThat(c.reason()).startsWith("consumer-0 is unpinned");
  }

  @Test
  void shouldKeepThePlacementsChoiceWhenOverridden() {
    WaitChoice c = advise(E5, Pinning.ALL, 1, "20", "").overriddenBy(WaitKind.BUSY_SPIN);

    assertThat(c.strategy()).isEqualTo(WaitKind.BUSY_SPIN);
    assertThat(c.placementChoice()).isEqualTo(WaitKind.SLEEPING);
    assertThat(c.headline()).startsWith("BUSY_SPIN (overridden by the user; placement would");
    assertThat(c.describe()).contains("producer on cpu 20").contains("consumer-0 on cpu 20");
    assertThatThrownBy(
            () ->
                new WaitChoice(
                    WaitKind.BUSY_SPIN, WaitKind.SLEEPING, false, "r", c.producer(), List.of()))
        .hasMessage("strategy: BUSY_SPIN (expected: SLEEPING unless overridden)");
  }

  @Test
  void shouldPlanTheSameLayoutTwiceAndFollowTheRunOutPolicy() {
    TestAssignments p = TestAssignments.on(E5);
    CpuSet pool = CpuSet.parse("20-21");
    List<io.github.affinitykit.core.placement.Placement> any =
        PinnedDisruptorBuilder.DEFAULT_PLACEMENTS;

    PipelineAssignments a = p.plan(Pinning.ALL, 3, pool, CpuSet.of(21), any, RunOutPolicy.SHARE);
    PipelineAssignments b = p.plan(Pinning.ALL, 3, pool, CpuSet.of(21), any, RunOutPolicy.SHARE);
    PipelineAssignments loose =
        p.plan(Pinning.CONSUMERS, 3, pool, CpuSet.empty(), any, RunOutPolicy.UNPINNED);

    assertThat(a).isEqualTo(b);
    assertThat(a.cpus()).hasToString("20");
    assertThat(loose.consumers()).extracting(s -> s.cpu()).containsExactly(20, 21, -1);
    assertThat(loose.consumers().get(2).reason())
        .contains("no CPU of pool 20-21 left for t-consumer-2")
        .endsWith("runs unpinned on CPUs 0-18"); // never the isolated 19-23
    assertThatThrownBy(() -> p.plan(Pinning.ALL, 2, pool, CpuSet.empty(), any, RunOutPolicy.FAIL))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no CPU of pool 20-21 left for t-consumer-1");
    assertThatThrownBy(() -> p.plan(Pinning.ALL, 0, pool, CpuSet.empty(), any, RunOutPolicy.SHARE))
        .hasMessage("consumers: [] (expected: at least one consumer)");
  }

  @Test
  void shouldParseWaitKindNamesAndNameTheRuleOnError() {
    assertThat(WaitKind.parse("busy-spin")).isEqualTo(WaitKind.BUSY_SPIN);
    assertThat(WaitKind.parse("Sleeping")).isEqualTo(WaitKind.SLEEPING);
    assertThat(WaitKind.BLOCKING.create())
        .isInstanceOf(com.lmax.disruptor.BlockingWaitStrategy.class);
    assertThatThrownBy(() -> WaitKind.parse("spin"))
        .hasMessage(
            "wait strategy: spin (expected: one of [busy_spin, yielding, sleeping, blocking])");
  }
}
