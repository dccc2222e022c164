package io.github.affinitykit.agrona;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.placement.WaitAdvice;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link IdleChoice}'s rules: busy-spin only with advice that says spin; -1 for no CPU. */
class IdleChoiceTest {
  @Test
  void shouldRefuseBusySpinWithoutAdviceThatSaysSpin() {
    WaitAdvice shared = new WaitAdvice(1, WaitAdvice.Basis.AUDITED_SHARED, "shared");

    assertThatThrownBy(
            () -> new IdleChoice(IdleChoice.Mode.BUSY_SPIN, "t", 1, Optional.of(shared), "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("advice: Optional[WaitAdvice[cpu=1, basis=AUDITED_SHARED")
        .hasMessageEndingWith("(expected: a WaitAdvice that says spin, for BUSY_SPIN)");
    assertThatThrownBy(
            () -> new IdleChoice(IdleChoice.Mode.BUSY_SPIN, "t", 1, Optional.empty(), "x"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(
            new IdleChoice(
                    IdleChoice.Mode.BUSY_SPIN,
                    "t",
                    1,
                    Optional.of(new WaitAdvice(1, WaitAdvice.Basis.ISOLATED_CORE, "iso")),
                    "iso")
                .spin())
        .isTrue();
  }

  @Test
  void shouldRefuseACpuBelowMinusOne() {
    assertThatThrownBy(
            () -> new IdleChoice(IdleChoice.Mode.BACKOFF, "t", -2, Optional.empty(), "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cpu: -2 (expected: >= -1)");
  }
}
