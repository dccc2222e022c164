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
    PinState s = twoBindings().settle(2, 1, LeaseStatus.PINNED, "first free CPU", NONE).lost(1, 1);

    assertThat(s.leaseStatus(1)).isEqualTo(LeaseStatus.LOST);
    assertThat(s.leaseStatus(2)).isEqualTo(LeaseStatus.LOST);
    assertThat(s.lost(1, 1)).as("told once a lease").isSameAs(s);
    assertThat(s.closing(1).leaseStatus(1)).isEqualTo(LeaseStatus.RELEASED);
  }

  /** Binding 1 bound on CPU 4 alone, then found moved to 2-3 (CPU 4 gone). */
  private static PinState movedOffFour() {
    PinState s =
        PinState.planned(LeaseStatus.PINNED, "explicit cpu 4", 4, NONE)
            .enter("svc-1", 11)
            .settle(1, 4, LeaseStatus.PINNED, "explicit cpu 4", NONE)
            .lost(1, 4);
    return s.moved(s.open(1).orElseThrow(), "allowed 2-3", CpuSet.range(2, 3));
  }

  @Test
  void shouldMoveTheSeatAndItsBindingToTheReplannedCpuOnceWithAFreshReservation() {
    PinState moved = movedOffFour();
    PinState.Binding seen = moved.open(1).orElseThrow();
    PinState s = moved.replanned(seen, 2, "explicit cpu 4 (re-planned from cpu 4 to cpu 2)");

    assertThat(s.cpu()).isEqualTo(2);
    assertThat(s.seatCpu()).isEqualTo(2);
    assertThat(s.boundCpu(1, -1)).isEqualTo(2);
    assertThat(s.leaseStatus(1)).as("a new reservation: not lost").isEqualTo(LeaseStatus.PINNED);
    assertThat(s.seatStatus()).isEqualTo(LeaseStatus.PINNED);
    assertThat(s.seatReason()).isEqualTo("explicit cpu 4 (re-planned from cpu 4 to cpu 2)");
    assertThat(s.intact(1)).isTrue();
    assertThat(s.replanned(seen, 3, "again")).as("told once: the move is undone").isSameAs(s);
    assertThat(s.lost(1, 4)).as("the old CPU's loss, read before the re-plan").isSameAs(s);
    assertThat(s.lost(1, 2).leaseStatus(1)).isEqualTo(LeaseStatus.LOST);
    PinState again = s.moved(s.open(1).orElseThrow(), "allowed 2-3", CpuSet.range(2, 3));
    assertThat(again.open(1).orElseThrow().moves()).as("a later move is a new one").isEqualTo(2);
  }

  @Test
  void shouldNotReplanAStaleReadingASecondBindingAClosingOneOrAClosedSeat() {
    PinState moved = movedOffFour();
    PinState.Binding seen = moved.open(1).orElseThrow();
    PinState stale = moved.moved(seen, "x", CpuSet.of(0)).repinned(seen, "r");

    assertThat(stale.replanned(seen, 2, "re-planned")).isSameAs(stale);
    PinState two = moved.enter("svc-1b", 12);
    assertThat(two.replanned(seen, 2, "re-planned")).as("bound twice").isSameAs(two);
    PinState closing = moved.closing(1);
    assertThat(closing.replanned(seen, 2, "re-planned")).isSameAs(closing);
    PinState closed = moved.released(false);
    assertThat(closed.replanned(seen, 2, "re-planned")).isSameAs(closed);
    PinState shared =
        PinState.planned(LeaseStatus.SHARED, "shares cpu 4", 4, NONE)
            .enter("s", 13)
            .settle(1, 4, LeaseStatus.SHARED, "shares cpu 4", NONE);
    shared = shared.moved(shared.open(1).orElseThrow(), "allowed 2-3", CpuSet.range(2, 3));
    assertThat(shared.replanned(shared.open(1).orElseThrow(), 2, "re-planned"))
        .as("a shared CPU is not the seat's alone")
        .isSameAs(shared);
  }
}
