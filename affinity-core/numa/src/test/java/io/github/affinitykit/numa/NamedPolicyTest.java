package io.github.affinitykit.numa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.ThreadMemoryPolicy;
import io.github.affinitykit.numa.MemoryPolicyStatus.State;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A policy's name read back ({@link MemoryPolicy#parse}, core's {@link
 * ThreadMemoryPolicy#named(String)} through this artifact's parser), and the status of a binding
 * this artifact did not make.
 */
class NamedPolicyTest {
  @Test
  void shouldReadBackEveryPolicyAsItPrints() {
    for (MemoryPolicy p :
        List.of(
            MemoryPolicy.DEFAULT,
            MemoryPolicy.LOCAL,
            MemoryPolicy.bind(0, 1),
            MemoryPolicy.preferred(1),
            MemoryPolicy.interleave(0, 2))) {
      assertThat(MemoryPolicy.parse(p.toString())).isEqualTo(p);
      assertThat(ThreadMemoryPolicy.named(p.toString())).isEqualTo(p);
    }
    assertThat(MemoryPolicy.parse(" bind  0-1 ")).isEqualTo(MemoryPolicy.bind(0, 1));
  }

  @Test
  void shouldRefuseANameThatIsNoPolicy() {
    assertThatThrownBy(() -> ThreadMemoryPolicy.named("near 0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "memory policy: near 0 (expected: default, local, bind N, preferred N, interleave N)");
    assertThatThrownBy(() -> MemoryPolicy.parse("bind"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("bind nodes: [] (expected: at least one node)");
  }

  @Test
  void shouldSayWhatAForeignBindingSays() {
    ThreadMemoryPolicy.Binding foreign =
        new ThreadMemoryPolicy.Binding() {
          @Override
          public boolean inForce() {
            return true;
          }

          @Override
          public void restore() {}

          @Override
          public String toString() {
            return "memory near 0: IN_FORCE";
          }
        };
    assertThat(MemoryPolicyStatus.of(Optional.of(foreign)))
        .isEqualTo(
            new MemoryPolicyStatus(
                MemoryPolicy.DEFAULT, State.IN_FORCE, 0, "memory near 0: IN_FORCE"));
  }
}
