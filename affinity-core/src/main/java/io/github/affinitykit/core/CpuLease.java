package io.github.affinitykit.core;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.Flight;
import io.github.affinitykit.core.internal.lease.LeaseSteps;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.os.AffinityException;
import io.github.affinitykit.core.reservation.Reservation;
import java.lang.ref.WeakReference;
import java.util.Objects;
import java.util.Optional;

/**
 * A thread bound to a CPU: the handle that pinning is. {@link Seat#bind()} binds the thread and
 * returns the lease; {@link #close()} restores the thread's previous mask and gives the CPU back to
 * its seat (and frees it, for {@link Seat#bindOnce()}), from any thread.
 *
 * <p>The lease keeps no state of its own: its status and reason are a view of its binding in its
 * seat's one state value ({@code PinState}: PINNED, SHARED, UNPINNED, UNSUPPORTED, FAILED, LOST
 * once a check found the reservation lost; MOVED once {@link #check()} found this lease's thread
 * moved; RELEASED once closed). Its checks, re-pin and close change that value by compare-and-set,
 * each told (counter, Flight Recorder) only by the caller whose transition happened. A lease that
 * did not bind a CPU ({@link #isBound()} false) says why in {@link #reason()}; closing it is
 * harmless.
 *
 * <p>Thread safety: its state is the seat's one compare-and-set value (no lock guards it; its bind
 * and close take the group's monitor briefly); {@link #close()} is idempotent and may be called
 * from any thread, including concurrently with a check, a re-pin or another close; the accessors
 * may be read from any thread.
 */
public final class CpuLease implements AutoCloseable {
  static { // affinity-watchdog's steps (core.internal.lease): no I/O, one assignment
    LeaseSteps.set(
        new LeaseSteps<CpuLease>() {
          @Override
          public boolean verifyLoss(CpuLease l) {
            return l.verifyLoss();
          }

          @Override
          public int move(CpuLease l) {
            return l.move();
          }

          @Override
          public CpuSet movedTo(CpuLease l) {
            return l.movedTo();
          }

          @Override
          public String repin(CpuLease l) {
            return l.repin();
          }
        });
  }

  private final Seat seat;
  private final int id; // its binding in the seat's state
  private final Optional<AffinityKit> kit;
  private final int tid;
  private final int cpu;
  private final CpuSet previous;
  private final Optional<ThreadMemoryPolicy.Binding> memory;
  private final Runnable onClose;
  private final String threadName = Thread.currentThread().getName(); // made on the bound thread
  // the bound thread, so that a check never reads (or a re-pin sets) a recycled thread id's mask
  private final WeakReference<Thread> owner = new WeakReference<>(Thread.currentThread());
  private final Optional<Reservation> reservation; // its CPU's, while the seat holds it

  /**
   * A lease of thread {@code tid}, binding {@code id} of {@code seat}: on {@code cpu}, or -1 when
   * it bound none; {@code previous} is the mask to restore (empty: nothing to restore); {@code
   * memory} the thread's memory policy, restored on close.
   */
  CpuLease(
      Seat seat,
      int id,
      Optional<AffinityKit> kit,
      int tid,
      int cpu,
      CpuSet previous,
      Optional<ThreadMemoryPolicy.Binding> memory,
      Runnable onClose) {
    this.seat = Objects.requireNonNull(seat, "seat");
    this.id = id;
    this.kit = Objects.requireNonNull(kit, "kit");
    this.tid = tid;
    this.cpu = cpu;
    this.previous = Objects.requireNonNull(previous, "previous");
    this.memory = Objects.requireNonNull(memory, "memory");
    this.onClose = Objects.requireNonNull(onClose, "onClose");
    this.reservation = cpu >= 0 ? seat.reservation() : Optional.empty();
  }

  /**
   * Returns the CPU, or -1 when nothing was bound.
   *
   * @return the bound CPU, 0-based; -1 if this lease bound none; {@link #close()} keeps it
   */
  public int cpu() {
    return cpu;
  }

  /**
   * Returns the name of the group whose seat made this lease.
   *
   * @return the group's name ({@link CpuGroup#name()})
   */
  public String group() {
    return seat.groupName();
  }

  /**
   * Returns the name of the member whose seat made this lease.
   *
   * @return the member's name ({@link Seat#member()})
   */
  public String member() {
    return seat.member();
  }

  /**
   * Returns the name the bound thread had when it was bound.
   *
   * @return the thread's name at the bind; a later rename is not seen
   */
  public String threadName() {
    return threadName;
  }

  /**
   * Returns the kernel thread id of the bound thread (-1 if unknown).
   *
   * @return the id ({@code gettid}) of the thread that {@link Seat#bind()} bound; -1 if unknown
   */
  public int tid() {
    return tid;
  }

  /**
   * Returns what became of the request: {@link LeaseStatus#RELEASED} after {@link #close()}, {@link
   * LeaseStatus#MOVED} once {@link #check()} found the thread moved, else its seat's status ({@link
   * LeaseStatus#LOST} once a check found the reservation lost: no I/O here, see {@link #verify()}).
   *
   * @return the status now, never null; read from memory, no system call
   */
  public LeaseStatus status() {
    return seat.state().leaseStatus(id);
  }

  /** Status and reason from one read of the seat's state, as the wait rule reads the lease. */
  Assignment view(String name) {
    PinState s = seat.state();
    return new Assignment(name, tid, cpu, s.leaseStatus(id), s.leaseReason(id));
  }

  /**
   * Checks that the reservation of the lease's CPU still holds (see {@link Reservation#verify()}).
   *
   * @return the status after the check: {@link LeaseStatus#LOST} if a lock file was deleted or
   *     replaced under it
   */
  public LeaseStatus verify() {
    verifyLoss();
    return status();
  }

  /**
   * Checks the reservation (its files: no lock held); true when this call found it lost: the
   * transition that tells a lease's loss ({@link AffinityKit#lostTotal()}, Flight Recorder) once,
   * whatever its status shows (a moved lease's too).
   */
  boolean verifyLoss() {
    if (cpu < 0 || seat.state().open(id).map(PinState.Binding::lossTold).orElse(true)) {
      return false;
    }
    reservation.ifPresent(Reservation::verify);
    if (!reservation.map(Reservation::isLost).orElse(false)
        || seat.change(s -> s.lost(id)).isEmpty()) {
      return false;
    }
    kit.ifPresent(k -> k.pinned().countLost());
    Flight.lost(cpu, tid, seat.state().reason());
    return true;
  }

  /**
   * Returns why: its seat's reason (the placement, run-out, platform or kernel), or the move.
   *
   * @return one line for people, never null; names the mask seen once {@link #check()} found a move
   */
  public String reason() {
    return seat.state().leaseReason(id);
  }

  /**
   * Returns whether the thread was bound to a CPU and the lease is neither closed nor found moved
   * (also when its reservation is {@link LeaseStatus#LOST}).
   *
   * @return false for a lease that bound no CPU, once closed, and once found moved
   */
  public boolean isBound() {
    return cpu >= 0 && seat.state().open(id).map(b -> b.moved().isEmpty()).orElse(false);
  }

  /**
   * Returns whether the thread is bound to its CPU and no check found otherwise: {@link
   * #isBound()}, and its reservation not found lost. One volatile read, no lock and no system call:
   * for a spin path that must stop spinning once a check (the application's or affinity-watchdog's)
   * found the pin broken.
   *
   * @return false once closed, found moved (until re-pinned) or its reservation found lost
   */
  public boolean isIntact() {
    return seat.state().intact(id);
  }

  /**
   * Asks the kernel whether the bound thread still runs only on its CPU. If it does not (the CPU
   * went offline and the kernel widened the mask, a cpuset shrank, someone else re-pinned it), the
   * status becomes {@link LeaseStatus#MOVED}, the reason names the mask seen, and {@link
   * AffinityKit#movedTotal()} counts it once. A lease that is not bound, or whose thread has ended,
   * is left as it is.
   *
   * @return the status after the check
   */
  public LeaseStatus check() {
    checkMove();
    return status();
  }

  /**
   * Reads the thread's mask; true when this call found the move: the transition that tells it
   * (counter, Flight Recorder, the seat's reports) once. A reading made stale by another check, a
   * re-pin or a close meanwhile does not apply.
   */
  boolean checkMove() {
    Optional<PinState.Binding> seen = seat.state().open(id);
    if (cpu < 0 || seen.isEmpty() || !seen.get().moved().isEmpty() || !ownerAlive()) {
      return false;
    }
    CpuSet now;
    try {
      now = kit.orElseThrow().backend().getAffinity(tid);
    } catch (AffinityException | UnsupportedOperationException e) {
      return false; // ESRCH: the thread ended; close() frees the CPU
    }
    String why = "pinned to cpu " + cpu + " but the kernel now allows it on " + now;
    if ((now.size() == 1 && now.contains(cpu))
        || seat.change(s -> s.moved(seen.get(), why, now)).isEmpty()) {
      return false;
    }
    kit.orElseThrow().pinned().countMoved();
    Flight.moved(cpu, tid, now.toString());
    return true;
  }

  private boolean ownerAlive() {
    Thread t = owner.get();
    return t != null && t.isAlive();
  }

  /** Whether a check found the thread moved and it was neither re-pinned nor closed since. */
  boolean isMoved() {
    return move() > 0;
  }

  /**
   * The number of the move the thread is on (the binding's count of moves found), or 0 when it is
   * not moved now: re-pinned, closed, or never found moved. A watchdog tells each number once.
   */
  int move() {
    PinState.Binding b = seat.state().open(id).orElse(null);
    return b == null || b.moved().isEmpty() ? 0 : b.moves();
  }

  /** The CPUs the kernel allowed the thread on when a check or a re-pin last looked; else empty. */
  CpuSet movedTo() {
    return seat.state().open(id).map(PinState.Binding::mask).orElse(CpuSet.empty());
  }

  /**
   * Binds the thread to its CPU again after {@link #check()} found it moved, when the kernel still
   * allows it there (affinity-watchdog's {@code RepinPolicy.REPIN}). Returns "" when this call
   * re-pinned it (the status goes back to the seat's, the reason names the move undone), else why
   * not (it stays MOVED).
   */
  String repin() {
    Optional<PinState.Binding> seen = seat.state().open(id);
    if (seen.isEmpty() || seen.get().moved().isEmpty()) {
      return "not moved";
    }
    if (!ownerAlive()) { // its id may be another thread's by now
      return "the thread has ended without closing its lease";
    }
    AffinityBackend backend = kit.orElseThrow().backend();
    PinState.Binding moved = seen.get();
    try {
      CpuSet mask = backend.getAffinity(tid);
      seat.change(s -> s.seen(moved, mask));
      if (!mask.contains(cpu)) {
        return "cpu " + cpu + " is gone: the kernel allows the thread only on " + mask;
      }
      backend.setAffinity(tid, CpuSet.of(cpu));
    } catch (AffinityException | UnsupportedOperationException | IllegalArgumentException e) {
      return "the kernel refused cpu " + cpu + ": " + e.getMessage();
    }
    if (seat.change(s -> s.repinned(moved, seat.plannedReason())).isPresent()) {
      return "";
    }
    // closed meanwhile, so its restore may have preceded our set: restore again, unless the
    // thread has bound a new lease since (its pin is not ours to undo)
    if (seat.state().open(id).isEmpty()
        && kit.orElseThrow().lease(tid).map(l -> l == this).orElse(true)) {
      restore(backend);
    }
    return "closed, re-pinned or moved again meanwhile";
  }

  /** Sets the mask the bind changed back, if it changed one (ESRCH: the thread ended: none). */
  private void restore(AffinityBackend backend) {
    try {
      if (!previous.isEmpty()) { // bound, or confined to a group's unpinned mask
        backend.setAffinity(tid, previous);
      }
    } catch (AffinityException e) {
      // ESRCH: the thread ended; nothing to restore.
    }
  }

  /**
   * Returns the mask the thread had before the bind changed it: before its pin, or before a member
   * without a CPU was confined to the group's unpinned mask; empty when the bind left it alone.
   *
   * @return the mask {@link #close()} restores; empty when it restores none
   */
  public CpuSet previousMask() {
    return previous;
  }

  /**
   * Returns what became of the group's memory policy on this lease's thread ({@link
   * CpuGroupBuilder#memoryPolicy}): affinity-numa's {@code MemoryPolicyStatus.of(lease)} reads it
   * as {@code LEFT_ALONE}, {@code IN_FORCE}, {@code FAILED} with the errno (the pin stands), and
   * once closed {@code RESTORED}, or {@code NOT_RESTORED} when closed from another thread.
   *
   * @return the policy on this lease's thread; empty where the group asked for none
   */
  public Optional<ThreadMemoryPolicy.Binding> memoryPolicy() {
    return memory;
  }

  /**
   * Restores the thread's previous memory policy (when closed on that thread) and mask (if the
   * thread still lives), takes the thread out of the kit's pinned threads and runs the seat's close
   * hook (which frees the CPU for {@link Seat#bindOnce()}). Idempotent.
   */
  @Override
  public void close() {
    Optional<PinState> was = seat.change(s -> s.closing(id)); // once: the first close
    if (was.isEmpty()) {
      return;
    }
    try {
      memory.ifPresent(ThreadMemoryPolicy.Binding::restore); // first, as it was set last
      kit.ifPresent(k -> restore(k.backend()));
      if (cpu >= 0) {
        kit.ifPresent(k -> k.dismiss(tid, cpu));
      }
    } catch (AffinityException e) {
      // ESRCH: the thread ended; nothing to restore.
    } finally {
      kit.ifPresent(k -> k.pinned().remove(this));
      seat.unbound(id);
      onClose.run();
      if (cpu >= 0) {
        Flight.released(cpu, tid, was.get().leaseStatus(id).name());
      }
    }
  }

  @Override
  public String toString() {
    return "CpuLease[tid="
        + tid
        + ", cpu="
        + cpu
        + ", "
        + status()
        + ": "
        + reason()
        + PinState.describe(memory)
        + "]";
  }
}
