package io.github.affinitykit.numa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.internal.natives.NativeLayer;
import io.github.affinitykit.numa.MemoryPolicy.Mode;
import io.github.affinitykit.numa.internal.MemoryLayer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The policy value: its factories' rules, its kernel form, its words. */
class MemoryPolicyTest {
  @Test
  void shouldStateEachPolicyWithItsNodes() {
    assertThat(MemoryPolicy.bind(1, 0, 1)).hasToString("bind 0-1");
    assertThat(MemoryPolicy.bind(1, 0).nodes()).containsExactly(0, 1);
    assertThat(MemoryPolicy.preferred(3).mode()).isEqualTo(Mode.PREFERRED);
    assertThat(MemoryPolicy.interleave(0, 2)).hasToString("interleave 0,2");
    assertThat(MemoryPolicy.LOCAL).hasToString("local");
    assertThat(MemoryPolicy.DEFAULT.nodes()).isEmpty();
    assertThat(MemoryPolicy.of(Mode.PREFERRED_MANY, 1, 2)).hasToString("preferred-many 1-2");
    assertThat(MemoryPolicy.bind(0))
        .isEqualTo(MemoryPolicy.of(Mode.BIND, 0))
        .hasSameHashCodeAs(MemoryPolicy.bind(0));
    assertThat(MemoryPolicy.bind(0)).isNotEqualTo(MemoryPolicy.interleave(0));
    assertThat(MemoryPolicy.bind(64, 1).mask()).containsExactly(2L, 1L);
  }

  @Test
  void shouldReadTheKernelsModesAsOldAndNewKernelsStateThem() {
    assertThat(MemoryPolicy.of(Mode.PREFERRED)).isSameAs(MemoryPolicy.LOCAL); // before 3.8
    assertThat(MemoryPolicy.of(Mode.LOCAL)).isSameAs(MemoryPolicy.LOCAL);
    assertThat(MemoryPolicy.of(Mode.DEFAULT)).isSameAs(MemoryPolicy.DEFAULT);
    assertThat(Mode.ofKernel(2 | 1 << 15)).isEqualTo(Mode.BIND); // MPOL_F_STATIC_NODES
    assertThat(Mode.WEIGHTED_INTERLEAVE.kernel()).isEqualTo(6);
    assertThatThrownBy(() -> Mode.ofKernel(9)).hasMessage("mode: 9 (expected: an MPOL_ mode, 0-6)");
  }

  @Test
  void shouldRefuseNodesThatDoNotFitTheMode() {
    assertThatThrownBy(MemoryPolicy::bind)
        .hasMessage("bind nodes: [] (expected: at least one node)");
    assertThatThrownBy(MemoryPolicy::interleave)
        .hasMessage("interleave nodes: [] (expected: at least one node)");
    assertThatThrownBy(() -> MemoryPolicy.of(Mode.PREFERRED, 0, 1))
        .hasMessage("preferred nodes: [0-1] (expected: one node)");
    assertThatThrownBy(() -> MemoryPolicy.of(Mode.LOCAL, 0))
        .hasMessage("local nodes: [0] (expected: none)");
    assertThatThrownBy(() -> MemoryPolicy.bind(0, -1))
        .hasMessage("nodes: [0, -1] (expected: 0-1023)");
    assertThatThrownBy(() -> MemoryPolicy.preferred(1024))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void shouldRefuseNodesTheHostLacks() {
    assertThat(MemoryPolicy.bind(1).checkNodes(List.of(0, 1))).isEqualTo(MemoryPolicy.bind(1));
    assertThat(MemoryPolicy.LOCAL.checkNodes(List.of(0))).isSameAs(MemoryPolicy.LOCAL);
    assertThatThrownBy(() -> MemoryPolicy.bind(7).checkNodes(List.of(0, 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("nodes: 7 (expected: a node of this host: 0-1)");
  }

  @Test
  void shouldAnswerMinusOneWithTheReasonWhereThePlatformHasNoCalls() {
    MemoryBackend none =
        LinuxMemoryBackend.on(MemoryLayer.on(NativeLayer.load("auto", "Mac OS X", "aarch64")));
    assertThat(none.isSupported()).isFalse();
    assertThat(none.reason()).isEqualTo("os.name Mac OS X: only Linux is supported");
    assertThat(none.read()).isEqualTo(new MemoryBackend.Reading(MemoryPolicy.DEFAULT, -1));
    assertThat(none.set(MemoryPolicy.bind(0))).isEqualTo(-1);
    assertThat(none).hasToString("LinuxMemoryBackend[os.name Mac OS X: only Linux is supported]");
  }
}
