package io.github.affinitykit.disruptor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.WaitAdvice;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.placement.RunOutPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * This machine's model (2 CPUs, no SMT, nothing isolated): where spinning would starve the producer
 * the placement never chooses BUSY_SPIN, even if an audit had found every CPU exclusive.
 */
@EnabledOnOs(OS.LINUX)
class LiveChoiceTest {
  private static WaitChoice advise(HostCpus host, Pinning pinning, int consumers, CpuSet audited) {
    PipelineAssignments layout =
        TestAssignments.on(host)
            .plan(
                pinning,
                consumers,
                host.pool().cpus(),
                CpuSet.empty(),
                PinnedDisruptorBuilder.DEFAULT_PLACEMENTS,
                RunOutPolicy.SHARE);
    return WaitChoice.advise(host, layout, audited);
  }

  @Test
  void shouldNotBusySpinOnTwoCpusWhereASpinningConsumerWouldStarveTheProducer() {
    HostCpus host = HostCpus.probe();
    assumeTrue(host.reachable().size() == 2, "this test describes a 2-CPU host");
    CpuSet everything = host.reachable();

    assertThat(host.pool().cpus().size()).isEqualTo(1);
    assertThat(advise(host, Pinning.ALL, 1, everything).strategy()).isEqualTo(WaitKind.SLEEPING);
    assertThat(advise(host, Pinning.ALL, 3, everything).strategy()).isEqualTo(WaitKind.SLEEPING);
    assertThat(advise(host, Pinning.CONSUMERS, 3, everything).strategy())
        .isEqualTo(WaitKind.SLEEPING);
    assertThat(advise(host, Pinning.UNPINNED, 1, everything).strategy())
        .isEqualTo(WaitKind.SLEEPING);
  }

  @Test
  void shouldSpinOnlyForOneAuditedConsumerWhileTheUnpinnedProducerKeepsTheOtherCpu() {
    HostCpus host = HostCpus.probe();
    assumeTrue(host.reachable().size() == 2, "this test describes a 2-CPU host");
    int pooled = host.pool().cpus().first();

    WaitChoice audited = advise(host, Pinning.CONSUMERS, 1, CpuSet.of(pooled));
    WaitChoice unaudited = advise(host, Pinning.CONSUMERS, 1, CpuSet.empty());

    assertThat(audited.strategy()).isEqualTo(WaitKind.BUSY_SPIN);
    assertThat(audited.producer().reason()).isEqualTo(WaitAdvice.Reason.NOT_PINNED);
    assertThat(audited.producer().cpu()).isEqualTo(-1);
    assertThat(unaudited.strategy()).isEqualTo(WaitKind.YIELDING);
    assertThat(unaudited.consumers().get(0).text()).contains("not isolated, and not audited");
  }
}
