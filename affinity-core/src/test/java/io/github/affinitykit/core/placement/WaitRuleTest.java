package io.github.affinitykit.core.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.FakeHost;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.testkit.Fixtures;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The spin rule on host models of machines this one is not: deterministic, no threads. */
class WaitRuleTest {
  private static final CpuSet NONE = CpuSet.empty();

  @TempDir Path tmp;

  @Test
  void shouldNotSpinOnAnIsolatedHyperThreadWhoseCoreMateIsNotIsolated() {
    HostCpus e5 = HostCpus.probe(Fixtures.root(Fixtures.E5)); // isolcpus=19-23, sibling n-12

    WaitAdvice a = WaitRule.judge(e5, 20, NONE, NONE);

    assertThat(a.basis()).isEqualTo(WaitAdvice.Basis.ISOLATED_SHARED_CORE);
    assertThat(a.spin()).isFalse();
    assertThat(a.reason()).contains("core-mate 8 is not");
  }

  @Test
  void shouldSpinOnAnIsolatedCpuWhoseWholeCoreIsIsolated() {
    HostCpus h = FakeHost.create(tmp, 8, 2).isolated("2-3,6-7").probe(); // cores {2,6} {3,7}

    WaitAdvice a = WaitRule.judge(h, 6, NONE, NONE);

    assertThat(a.basis()).isEqualTo(WaitAdvice.Basis.ISOLATED_CORE);
    assertThat(a.spin()).isTrue();
    assertThat(a.reason()).isEqualTo("isolated, with its whole core 2,6");
  }

  @Test
  void shouldSpinOnlyWhereTheAuditFoundTheCpuExclusive() {
    HostCpus h = FakeHost.create(tmp, 2, 1).probe(); // this machine's shape: 2 CPUs, no SMT

    WaitAdvice exclusive = WaitRule.judge(h, 1, CpuSet.of(1), CpuSet.of(1));
    WaitAdvice shared = WaitRule.judge(h, 1, NONE, CpuSet.of(1));
    WaitAdvice unaudited = WaitRule.judge(h, 1, NONE, NONE);

    assertThat(exclusive.basis()).isEqualTo(WaitAdvice.Basis.AUDITED_EXCLUSIVE);
    assertThat(exclusive.spin()).isTrue();
    assertThat(shared.basis()).isEqualTo(WaitAdvice.Basis.AUDITED_SHARED);
    assertThat(shared.reason()).contains("the audit found it SHARED");
    assertThat(unaudited.basis()).isEqualTo(WaitAdvice.Basis.NOT_AUDITED);
    assertThat(unaudited.reason()).contains("not audited");
    assertThat(shared.spin()).isFalse();
    assertThat(unaudited.spin()).isFalse();
  }

  @Test
  void shouldTrustAnAuditOverAnIsolatedHyperThreadsBusyCoreMate() {
    HostCpus e5 = HostCpus.probe(Fixtures.root(Fixtures.E5));

    WaitAdvice a = WaitRule.judge(e5, 20, CpuSet.of(20), CpuSet.of(20));

    assertThat(a.basis()).isEqualTo(WaitAdvice.Basis.AUDITED_EXCLUSIVE);
  }

  @Test
  void shouldRefuseAnExclusiveSetOutsideTheAuditedOneAndUnknownCpus() {
    HostCpus h = FakeHost.create(tmp, 2, 1).probe();

    assertThatThrownBy(() -> WaitRule.judge(h, 1, CpuSet.of(1), NONE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("auditedExclusive: 1 (expected: within audited )");
    assertThatThrownBy(() -> WaitRule.judge(h, 7, NONE, NONE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("cpu: 7 (expected: one of 0-1");
    assertThatThrownBy(() -> new WaitAdvice(-1, WaitAdvice.Basis.NOT_AUDITED, "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cpu: -1 (expected: >= 0)");
  }
}
