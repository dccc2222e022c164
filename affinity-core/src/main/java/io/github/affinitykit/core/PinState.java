package io.github.affinitykit.core;

import io.github.affinitykit.core.cpu.CpuSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * The whole state of one {@link Seat}, as one immutable value: status (planned PINNED, SHARED,
 * UNPINNED or UNSUPPORTED; FAILED after a refused bind; RELEASED once closed), reason, CPU, the
 * thread bound last, bind count, whether its reservation was found lost, the last bind's memory
 * policy, and its open bindings. Each transition returns a new value, or this very value when it
 * does not apply, so the seat's compare-and-set loop knows whether it happened and its caller tells
 * the event exactly once. A seat bound twice at once is modelled, not refused: see ARCHITECTURE.md,
 * "One pin state".
 *
 * <p>Thread safety: immutable.
 */
record PinState(
    LeaseStatus status,
    String reason,
    int cpu,
    String thread,
    int tid,
    int starts,
    boolean lost,
    Optional<ThreadMemoryPolicy.Binding> memory,
    List<Binding> bindings) {

  /**
   * One thread's binding to the seat, from its bind ({@code id}: the seat's start count then) until
   * its thread is restored ({@code closing} from its lease's first close), with its own outcome
   * ({@code status}, {@code reason}: the seat's plan until its bind ends). {@code moved} says why a
   * check found it moved ("" if not), {@code mask} the CPUs seen; {@code moves} counts moves, so a
   * stale reading never applies; {@code lossTold}: its lease told the reservation's loss.
   */
  record Binding(
      int id,
      int cpu,
      LeaseStatus status,
      String reason,
      boolean closing,
      String moved,
      CpuSet mask,
      int moves,
      boolean lossTold) {
    private Binding with(boolean close, String why, CpuSet seen, int n, boolean told) {
      return new Binding(id, cpu, status, reason, close, why, seen, n, told);
    }
  }

  /** A seat just planned: nothing bound yet. */
  static PinState planned(
      LeaseStatus status, String reason, int cpu, Optional<ThreadMemoryPolicy.Binding> memory) {
    return new PinState(status, reason, cpu, "", -1, 0, false, memory, List.of());
  }

  /** {@code ", memory bind 0: IN_FORCE (...)"} for a report; empty where nothing was asked. */
  static String describe(Optional<ThreadMemoryPolicy.Binding> memory) {
    String line = memory.map(Object::toString).orElse("");
    return line.isEmpty() ? "" : ", " + line;
  }

  /** The binding {@code id} while its lease is open (not closing). */
  Optional<Binding> open(int id) {
    return Optional.ofNullable(find(id));
  }

  private Binding find(int id) { // no allocation: isIntact() is read on spin paths; null if none
    for (Binding b : bindings) {
      if (b.id == id && !b.closing) {
        return b;
      }
    }
    return null;
  }

  boolean isBound() {
    return !bindings.isEmpty();
  }

  private boolean holds() {
    return status == LeaseStatus.PINNED || status == LeaseStatus.SHARED;
  }

  /** The status without any binding's move: LOST once found so. */
  private LeaseStatus base() {
    return holds() && lost ? LeaseStatus.LOST : status;
  }

  /** The newest open binding's move ("" if none): what the seat's reports show (over LOST). */
  private String seatMove() {
    List<Binding> open = bindings.stream().filter(b -> !b.closing).toList();
    return holds() && !open.isEmpty() ? open.get(open.size() - 1).moved : "";
  }

  LeaseStatus seatStatus() {
    return seatMove().isEmpty() ? base() : LeaseStatus.MOVED;
  }

  String seatReason() {
    String m = seatMove();
    return m.isEmpty() ? reason : m;
  }

  int seatCpu() {
    return status == LeaseStatus.FAILED ? -1 : cpu;
  }

  LeaseStatus leaseStatus(int id) {
    Binding b = find(id);
    if (b == null) {
      return LeaseStatus.RELEASED;
    }
    boolean holds = b.status == LeaseStatus.PINNED || b.status == LeaseStatus.SHARED;
    return !b.moved.isEmpty() ? LeaseStatus.MOVED : holds && lost ? LeaseStatus.LOST : b.status;
  }

  String leaseReason(int id) {
    Binding b = find(id);
    return b == null ? reason : b.moved.isEmpty() ? b.reason : b.moved;
  }

  /** Bound to a CPU, open, not found moved, its reservation not found lost. */
  boolean intact(int id) {
    Binding b = find(id);
    return !lost && b != null && b.cpu >= 0 && b.moved.isEmpty();
  }

  // Transitions: each returns this very value when it does not apply.

  /** A thread enters: counted, named; bound unless the seat is closed ({@code id} = starts). */
  PinState enter(String name, int threadId) {
    List<Binding> b = new ArrayList<>(bindings);
    if (status != LeaseStatus.RELEASED) {
      b.add(new Binding(starts + 1, -1, status, reason, false, "", CpuSet.empty(), 0, false));
    }
    return new PinState(
        status, reason, cpu, name, threadId, starts + 1, lost, memory, List.copyOf(b));
  }

  /**
   * Binding {@code id}'s bind ended: on {@code boundCpu} (-1: none) with this status and reason.
   */
  PinState settle(
      int id, int boundCpu, LeaseStatus s, String why, Optional<ThreadMemoryPolicy.Binding> m) {
    List<Binding> b =
        with(id, x -> true, x -> new Binding(id, boundCpu, s, why, false, "", x.mask, 0, false));
    return status == LeaseStatus.RELEASED || b == bindings
        ? this
        : new PinState(s, why, cpu, thread, tid, starts, lost, m, b);
  }

  /**
   * A check found binding {@code seen} on {@code mask}. This and the re-pin transitions apply only
   * to the binding as it was read before the system call ({@code moves} unchanged, not closing): a
   * reading made stale by another check, a re-pin or a close meanwhile is dropped.
   */
  PinState moved(Binding seen, String why, CpuSet mask) {
    return since(
        seen,
        b -> b.moved.isEmpty(),
        b -> b.with(false, why, mask, b.moves + 1, b.lossTold),
        reason);
  }

  /** The kernel allowed the moved binding {@code seen} on {@code mask} when a re-pin looked. */
  PinState seen(Binding seen, CpuSet mask) {
    return since(
        seen,
        b -> !b.mask.equals(mask),
        b -> b.with(false, b.moved, mask, b.moves, b.lossTold),
        reason);
  }

  /**
   * The moved binding {@code seen} was bound to its CPU again: the reason names the move undone.
   */
  PinState repinned(Binding seen, String plannedReason) {
    String why = plannedReason + " (re-pinned after: " + seen.moved + ")";
    return since(
        seen,
        b -> !b.moved.isEmpty(),
        b -> new Binding(b.id, b.cpu, b.status, why, false, "", b.mask, b.moves, b.lossTold),
        why);
  }

  /**
   * The moved binding {@code seen}, whose CPU is gone from its mask, was bound to {@code to}, a CPU
   * its group reserved in its place: the seat's CPU becomes {@code to}, its reason {@code why}, its
   * reservation new (not lost). Only a PINNED seat's one binding, as it was read; once.
   */
  PinState replanned(Binding seen, int to, String why) {
    if (status != LeaseStatus.PINNED || bindings.size() != 1) {
      return this;
    }
    List<Binding> b =
        with(
            seen.id,
            x -> x.moves == seen.moves && !x.moved.isEmpty(),
            x -> new Binding(x.id, to, x.status, why, false, "", x.mask, x.moves, false));
    return b == bindings
        ? this
        : new PinState(status, why, to, thread, tid, starts, false, memory, b);
  }

  /** The CPU binding {@code id} is bound to while open, else {@code otherwise}. */
  int boundCpu(int id, int otherwise) {
    Binding b = find(id);
    return b == null ? otherwise : b.cpu;
  }

  private PinState since(
      Binding seen, Predicate<Binding> when, UnaryOperator<Binding> set, String why) {
    return copy(with(seen.id, b -> b.moves == seen.moves && when.test(b), set), why, lost);
  }

  /**
   * Binding {@code id}'s lease found the reservation of {@code cpu} lost: the seat is LOST, told
   * once a lease; not if a re-plan has moved the binding to another CPU meanwhile.
   */
  PinState lost(int id, int cpu) {
    return copy(
        with(
            id,
            b -> !b.lossTold && b.cpu == cpu,
            b -> b.with(false, b.moved, b.mask, b.moves, true)),
        reason,
        true);
  }

  /** Binding {@code id}'s lease closes: from now on it says RELEASED; once. */
  PinState closing(int id) {
    return copy(
        with(id, b -> true, b -> b.with(true, b.moved, b.mask, b.moves, b.lossTold)), reason, lost);
  }

  /** Binding {@code id}'s thread is restored: the seat no longer counts it as bound. */
  PinState unbound(int id) {
    List<Binding> b = new ArrayList<>(bindings);
    return b.removeIf(x -> x.id == id) ? copy(List.copyOf(b), reason, lost) : this;
  }

  /** The seat closes ({@code whenIdle}: only if no thread is bound); once. */
  PinState released(boolean whenIdle) {
    if (status == LeaseStatus.RELEASED || (whenIdle && isBound())) {
      return this;
    }
    String why = starts == 0 ? "never started; freed by close()" : reason;
    return new PinState(
        LeaseStatus.RELEASED, why, cpu, thread, tid, starts, lost, memory, bindings);
  }

  /**
   * This value with {@code b}, {@code why}, {@code loss}; this very value if {@code b} is the same.
   */
  private PinState copy(List<Binding> b, String why, boolean loss) {
    return b == bindings
        ? this
        : new PinState(status, why, cpu, thread, tid, starts, loss, memory, b);
  }

  /**
   * The bindings with open binding {@code id} replaced when {@code when} holds; else the same list
   * (a closing binding never changes again).
   */
  private List<Binding> with(int id, Predicate<Binding> when, UnaryOperator<Binding> set) {
    for (int i = 0; i < bindings.size(); i++) {
      Binding b = bindings.get(i);
      if (b.id == id && !b.closing && when.test(b)) {
        List<Binding> all = new ArrayList<>(bindings);
        all.set(i, set.apply(b));
        return List.copyOf(all);
      }
    }
    return bindings;
  }
}
