package io.github.affinitykit.core;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.os.AffinityException;
import io.github.affinitykit.core.reservation.Reservation;
import java.util.Optional;

/**
 * A watchdog's re-plan ({@code RepinPolicy.REPLAN}): a moved thread whose CPU is gone from its mask
 * (a cpuset that shrank, a CPU taken offline) is bound to another CPU its group reserves for it,
 * within the mask, through the same planner and cross-process reservations as a new member; the
 * seat's state moves to it in one transition ({@code PinState.replanned}), told once, and the old
 * CPU is freed. A thread whose CPU is still allowed is a re-pin's, not a re-plan's.
 *
 * <p>Thread safety: any thread; the group's monitor is held from the plan to the old CPU's release
 * (lock order: a watchdog's check monitor, the group's, the reservations'), and the state changes
 * by compare-and-set, so a close, a check or another watchdog racing it wins or loses cleanly.
 */
final class Replan {
  private Replan() {}

  /** {@return "" once {@code lease}'s thread is bound to a re-planned CPU, else why not} */
  static String of(CpuLease lease) {
    Seat seat = lease.seat();
    PinState s = seat.state();
    Optional<PinState.Binding> seen = s.open(lease.id());
    if (seen.isEmpty() || seen.get().moved().isEmpty()) {
      return "not moved";
    }
    if (!lease.ownerAlive()) { // its id may be another thread's by now
      return "the thread has ended without closing its lease";
    }
    PinState.Binding moved = seen.get();
    int from = moved.cpu();
    if (s.status() != LeaseStatus.PINNED || s.bindings().size() != 1) {
      return "cpu " + from + " is not its seat's alone (" + s.status() + "): not re-planned";
    }
    AffinityBackend backend = lease.kit().backend();
    CpuSet mask;
    try {
      mask = backend.getAffinity(lease.tid());
    } catch (AffinityException | UnsupportedOperationException e) {
      return "the kernel refused to say where the thread may run: " + e.getMessage();
    }
    seat.change(x -> x.seen(moved, mask));
    if (mask.contains(from)) {
      return "cpu " + from + " is still allowed: a re-pin's, not a re-plan's";
    }
    return seat.group()
        .replan(seat, from, mask, (to, placement) -> bind(lease, moved, mask, to, placement));
  }

  /** Under the group's monitor: binds the thread to {@code to} and moves the seat's state there. */
  private static String bind(
      CpuLease lease, PinState.Binding moved, CpuSet mask, Reservation to, String placement) {
    AffinityKit kit = lease.kit();
    AffinityBackend backend = kit.backend();
    int tid = lease.tid();
    int from = moved.cpu();
    String admitted = kit.admit(tid, to.cpu());
    try {
      backend.setAffinity(tid, CpuSet.of(to.cpu()));
    } catch (AffinityException | UnsupportedOperationException | IllegalArgumentException e) {
      kit.dismiss(tid, to.cpu());
      return "the kernel refused cpu "
          + to.cpu()
          + ": "
          + e.getMessage()
          + (admitted.isEmpty() ? "" : " (" + admitted + ")");
    }
    Seat seat = lease.seat();
    String why =
        String.format(
            "%s (re-planned from cpu %d to cpu %d, %s, after: %s)",
            seat.plannedReason(), from, to.cpu(), placement, moved.moved());
    if (seat.change(s -> s.replanned(moved, to.cpu(), why)).isEmpty()) {
      kit.dismiss(tid, to.cpu()); // the new CPU is freed: the thread must not stay there
      return seat.state().open(lease.id()).isEmpty() ? lease.lostRace(backend) : back(lease, mask);
    }
    lease.held(CpuLease.Held.of(to.cpu(), Optional.of(to)));
    kit.dismiss(tid, from);
    return "";
  }

  /**
   * The transition lost to another bind of the seat or a new move: the thread goes back to the mask
   * it was moved to (a move made between our read and this set is overwritten: rare, and the next
   * check reads it again).
   */
  private static String back(CpuLease lease, CpuSet mask) {
    try {
      lease.kit().backend().setAffinity(lease.tid(), mask);
    } catch (AffinityException e) {
      // ESRCH: the thread ended; nothing to put back.
    }
    return "bound again or moved again meanwhile";
  }
}
