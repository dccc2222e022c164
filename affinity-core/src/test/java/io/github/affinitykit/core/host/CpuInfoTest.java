package io.github.affinitykit.core.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.cpu.CoreType;
import io.github.affinitykit.core.cpu.CpuInfo;
import io.github.affinitykit.core.cpu.CpuSet;
import org.junit.jupiter.api.Test;

class CpuInfoTest {
  @Test
  void shouldRejectANegativeCpuWhenConstructed() {
    assertThatThrownBy(() -> info(-1, CpuSet.empty(), CoreType.UNIFORM))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cpu: -1 (expected: >= 0)");
  }

  @Test
  void shouldRejectNullWhenConstructed() {
    assertThatThrownBy(() -> info(0, null, CoreType.UNIFORM))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("core");
    assertThatThrownBy(() -> info(0, CpuSet.of(0), null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("coreType");
  }

  @Test
  void shouldSeeAnSmtSiblingWhenTheCoreHasTwoCpus() {
    assertThat(info(0, CpuSet.of(0, 1), CoreType.UNIFORM).hasSmtSibling()).isTrue();
    assertThat(info(0, CpuSet.of(0), CoreType.UNIFORM).hasSmtSibling()).isFalse();
  }

  private static CpuInfo info(int cpu, CpuSet core, CoreType type) {
    return new CpuInfo(
        cpu, 0, 0, -1, 0, core, CpuSet.empty(), -1, CpuSet.empty(), CpuSet.empty(), type, -1);
  }
}
