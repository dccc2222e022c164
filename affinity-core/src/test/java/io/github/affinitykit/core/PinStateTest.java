package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cpu.CpuSet;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The one pin state's views when a seat is bound twice at once (a Netty loop resumed on a new
 * thread before the old one's lease closed): each lease reads its own binding's outcome, a move and
 * a re-pin stay on the binding they happened to, and the reservation's loss is the seat's.
 */
class PinStateTest {
  private static final Optional<ThreadMemoryPolicy.Binding> NONE = Optional.empty();

  /** Binding 1 bound on CPU 1, binding 2 entered after it. */
  private static PinState twoBindings() {
    return PinState.planned(LeaseStatus.PINNED, "first free CPU", 1, NONE)
        .enter("old", 11)
        .settle(1, 1, LeaseStatus.PINNED, "first free CPU", NONE)
        .enter("new", 12);
  }

  @Test
  void shouldKeepTheFirstLeasePinnedWhenTheSecondBindIsRefused() {
    PinState s = twoBindings().settle(2, -1, LeaseStatus.FAILED, "EINVAL on cpu 1", NONE);

    assertThat(s.leaseStatus(1)).isEqualTo(LeaseStatus.PINNED);
    assertThat(s.leaseReason(1)).isEqualTo("first free CPU");
    assertThat(s.intact(1)).isTrue();
    assertThat(s.leaseStatus(2)).isEqualTo(LeaseStatus.FAILED);
    assertThat(s.leaseReason(2)).isEqualTo("EINVAL on cpu 1");
    assertThat(s.intact(2)).isFalse();
    assertThat(s.seatStatus())
        .as("the seat says its last bind's outcome")
        .isEqualTo(LeaseStatus.FAILED);
  }

  @Test
  void shouldShowAMoveAndItsRepinOnlyOnTheBindingTheyHappenedTo() {
    PinState s = twoBindings().settle(2, 1, LeaseStatus.PINNED, "first free CPU", NONE);
    PinState.Binding seen = s.open(1).orElseThrow();
    PinState moved = s.moved(seen, "allowed 0-1", CpuSet.of(0, 1));

    assertThat(moved.leaseStatus(1)).isEqualTo(LeaseStatus.MOVED);
    assertThat(moved.leaseReason(1)).isEqualTo("allowed 0-1");
    assertThat(moved.leaseStatus(2)).isEqualTo(LeaseStatus.PINNED);
    assertThat(moved.moved(seen, "again", CpuSet.of(0))).as("a stale reading").isSameAs(moved);

    PinState repinned = moved.repinned(moved.open(1).orElseThrow(), "first free CPU");
    assertThat(repinned.leaseStatus(1)).isEqualTo(LeaseStatus.PINNED);
    assertThat(repinned.leaseReason(1)).isEqualTo("first free CPU (re-pinned after: allowed 0-1)");
    assertThat(repinned.leaseReason(2)).isEqualTo("first free CPU");
  }

  @Test
  void shouldShowTheSeatsLostReservationOnEveryBindingThatHoldsTheCpu() {
    PinState s = twoBindings().settle(2, 1, LeaseStatus.PINNED, "first free CPU", NONE).lost(1);

    assertThat(s.leaseStatus(1)).isEqualTo(LeaseStatus.LOST);
    assertThat(s.leaseStatus(2)).isEqualTo(LeaseStatus.LOST);
    assertThat(s.lost(1)).as("told once a lease").isSameAs(s);
    assertThat(s.closing(1).leaseStatus(1)).isEqualTo(LeaseStatus.RELEASED);
  }
}
