package io.github.affinitykit.core;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.Flight;
import io.github.affinitykit.core.memory.MemoryPolicyStatus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.os.AffinityException;
import io.github.affinitykit.core.reservation.Reservation;
import java.lang.ref.WeakReference;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A thread bound to a CPU: the handle that pinning is. {@link Seat#bind()} binds the thread and
 * returns the lease; {@link #close()} restores the thread's previous mask and gives the CPU back to
 * its seat (and frees it, for {@link Seat#bindOnce()}), from any thread.
 *
 * <p>The lease reads what became of the thread from its {@link Seat} (the seat owns the status and
 * the reason: PINNED, SHARED, UNPINNED, UNSUPPORTED, FAILED, LOST when its reservation was lost);
 * the lease adds only what is its own: {@link LeaseStatus#MOVED} once {@link #check()} found the
 * thread moved, {@link LeaseStatus#RELEASED} once closed. A lease that did not bind a CPU ({@link
 * #isBound()} false) says why in {@link #reason()}; closing it is harmless.
 *
 * <p>Thread safety: {@link #close()} is idempotent and may be called from any thread, including
 * concurrently; the accessors may be read from any thread.
 */
public final class CpuLease implements AutoCloseable {
  private final Seat seat;
  private final Optional<AffinityKit> kit;
  private final int tid;
  private final int cpu;
  private final CpuSet previous;
  private final ThreadMemory memory;
  private final Runnable onClose;
  private final String threadName = Thread.currentThread().getName(); // made on the bound thread
  // the bound thread, so that a check never reads (or a re-pin sets) a recycled thread id's mask
  private final WeakReference<Thread> owner = new WeakReference<>(Thread.currentThread());
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile Optional<String> moved = Optional.empty();
  private volatile CpuSet movedTo = CpuSet.empty(); // the mask a check or a re-pin found
  private final Optional<Reservation> reservation; // its CPU's, while the seat holds it
  private volatile boolean lossFound; // set under this: the reservation's loss was counted

  /**
   * A lease of thread {@code tid}, made by {@code seat} when it bound the thread: on {@code cpu},
   * or -1 when it bound none; {@code previous} is the mask to restore (empty: nothing to restore);
   * {@code memory} the thread's memory policy, restored on close.
   */
  CpuLease(
      Seat seat,
      Optional<AffinityKit> kit,
      int tid,
      int cpu,
      CpuSet previous,
      ThreadMemory memory,
      Runnable onClose) {
    this.seat = Objects.requireNonNull(seat, "seat");
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
    if (closed.get()) {
      return LeaseStatus.RELEASED;
    }
    return moved.isPresent() ? LeaseStatus.MOVED : seat.leaseStatus();
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
   * Checks the reservation (its files: outside the lease's lock); true when this call found it
   * lost. A lease's loss is counted ({@link PinnedLeases#lostTotal()}) and recorded once, whatever
   * its status shows (a moved lease's too).
   */
  boolean verifyLoss() {
    if (cpu < 0 || closed.get() || lossFound) {
      return false;
    }
    reservation.ifPresent(Reservation::verify);
    if (!reservation.map(Reservation::isLost).orElse(false)) {
      return false;
    }
    synchronized (this) {
      if (lossFound) {
        return false;
      }
      lossFound = true;
    }
    kit.ifPresent(k -> k.leases().countLost());
    Flight.lost(cpu, tid, seat.leaseReason());
    return true;
  }

  /**
   * Returns why: its seat's reason (the placement, run-out, platform or kernel), or the move.
   *
   * @return one line for people, never null; names the mask seen once {@link #check()} found a move
   */
  public String reason() {
    return moved.orElseGet(seat::leaseReason);
  }

  /**
   * Returns whether the thread was bound to a CPU and the lease is neither closed nor found moved
   * (also when its reservation is {@link LeaseStatus#LOST}).
   *
   * @return false for a lease that bound no CPU, once closed, and once found moved
   */
  public boolean isBound() {
    return cpu >= 0 && !closed.get() && moved.isEmpty();
  }

  /**
   * Returns whether the thread is bound to its CPU and no check found otherwise: {@link
   * #isBound()}, and its reservation not found lost. Volatile reads only, no lock and no system
   * call: for a spin path that must stop spinning once a check (the application's or a {@link
   * Watchdog}'s) found the pin broken.
   *
   * @return false once closed, found moved (until re-pinned) or its reservation found lost
   */
  public boolean isIntact() {
    return isBound() && !reservation.map(Reservation::isLost).orElse(false);
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

  /** Reads the thread's mask; a move is counted, recorded and told to the seat once. */
  void checkMove() {
    if (!isBound() || !ownerAlive()) {
      return;
    }
    CpuSet now;
    try {
      now = kit.orElseThrow().backend().getAffinity(tid);
    } catch (AffinityException | UnsupportedOperationException e) {
      return; // ESRCH: the thread ended; close() frees the CPU
    }
    if (now.size() == 1 && now.contains(cpu)) {
      return;
    }
    synchronized (this) {
      if (!isBound()) {
        return;
      }
      moved = Optional.of("pinned to cpu " + cpu + " but the kernel now allows it on " + now);
      movedTo = now;
      seat.moved(moved.get());
      kit.orElseThrow().leases().countMoved();
      Flight.moved(cpu, tid, now.toString());
    }
  }

  private boolean ownerAlive() {
    Thread t = owner.get();
    return t != null && t.isAlive();
  }

  /** Whether a check found the thread moved and it was neither re-pinned nor closed since. */
  boolean isMoved() {
    return moved.isPresent() && !closed.get();
  }

  /** The CPUs the kernel allowed the thread on when a check or a re-pin last looked; else empty. */
  CpuSet movedTo() {
    return movedTo;
  }

  /**
   * Binds the thread to its CPU again after {@link #check()} found it moved, when the kernel still
   * allows it there ({@link RepinPolicy#REPIN}). Returns "" when it is pinned again (the status
   * goes back to the seat's, the reason names the move undone), else why not (it stays MOVED).
   */
  synchronized String repin() {
    if (closed.get() || moved.isEmpty()) {
      return "not moved";
    }
    if (!ownerAlive()) { // its id may be another thread's by now
      return "the thread has ended without closing its lease";
    }
    AffinityBackend backend = kit.orElseThrow().backend();
    try {
      movedTo = backend.getAffinity(tid);
      if (!movedTo.contains(cpu)) {
        return "cpu " + cpu + " is gone: the kernel allows the thread only on " + movedTo;
      }
      backend.setAffinity(tid, CpuSet.of(cpu));
    } catch (AffinityException | UnsupportedOperationException | IllegalArgumentException e) {
      return "the kernel refused cpu " + cpu + ": " + e.getMessage();
    }
    String undone = moved.get();
    moved = Optional.empty();
    seat.repinned(undone);
    return "";
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
   * CpuGroupBuilder#memoryPolicy}): {@code LEFT_ALONE}, {@code IN_FORCE}, {@code REFUSED} with the
   * errno (the pin stands), and once closed {@code RESTORED}, or {@code NOT_RESTORED} when closed
   * from another thread.
   *
   * @return the status now; no system call
   */
  public MemoryPolicyStatus memoryPolicy() {
    return memory.status();
  }

  /**
   * Restores the thread's previous memory policy (when closed on that thread) and mask (if the
   * thread still lives), takes the thread out of the kit's pinned threads and runs the seat's close
   * hook (which frees the CPU for {@link Seat#bindOnce()}). Idempotent.
   */
  @Override
  public void close() {
    LeaseStatus was;
    synchronized (this) { // check() counts a move only while the lease is open
      was = status();
      if (!closed.compareAndSet(false, true)) {
        return;
      }
    }
    try {
      memory.restore(); // first, as it was set last
      if (!previous.isEmpty()) { // bound, or confined to a group's unpinned mask
        kit.orElseThrow().backend().setAffinity(tid, previous);
      }
      if (cpu >= 0) {
        kit.ifPresent(k -> k.dismiss(tid, cpu));
      }
    } catch (AffinityException e) {
      // ESRCH: the thread ended; nothing to restore.
    } finally {
      kit.ifPresent(k -> k.leases().remove(this));
      onClose.run();
      if (cpu >= 0) {
        Flight.unpinned(cpu, tid, was.name());
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
        + ThreadMemory.describe(memory.status())
        + "]";
  }
}
