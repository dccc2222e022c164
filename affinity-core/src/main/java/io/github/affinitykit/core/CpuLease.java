package io.github.affinitykit.core;

import io.github.affinitykit.core.os.AffinityException;
import io.github.affinitykit.core.reservation.Reservation;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A thread bound to a CPU: the handle that pinning is. {@link Seat#bind()} binds the thread and
 * returns the lease; {@link #close()} restores the thread's previous mask and gives the CPU back to
 * its seat (and frees it, for {@link Seat#bindOnce()}), from any thread.
 *
 * <p>A lease whose {@link #status()} is not {@link LeaseStatus#PINNED} or {@link
 * LeaseStatus#SHARED} did not bind anything; {@link #reason()} says why. Closing it is harmless.
 *
 * <p>Thread safety: {@link #close()} is idempotent and may be called from any thread, including
 * concurrently; the accessors may be read from any thread.
 */
public final class CpuLease implements AutoCloseable {
  private final Optional<AffinityKit> kit;
  private final int tid;
  private final int cpu;
  private final CpuSet previous;
  private final Optional<Reservation> reservation;
  private final Runnable onClose;
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile LeaseStatus status;
  private volatile String reason;

  /**
   * A lease of thread {@code tid} on {@code cpu}, made by the seat that bound it; {@code
   * reservation} is the seat's CPU's, read for {@link #verify()} and never closed here.
   */
  CpuLease(
      Optional<AffinityKit> kit,
      int tid,
      int cpu,
      CpuSet previous,
      Optional<Reservation> reservation,
      LeaseStatus status,
      String reason,
      Runnable onClose) {
    this.kit = Objects.requireNonNull(kit, "kit");
    this.tid = tid;
    this.cpu = cpu;
    this.previous = Objects.requireNonNull(previous, "previous");
    this.reservation = Objects.requireNonNull(reservation, "reservation");
    this.status = Objects.requireNonNull(status, "status");
    this.reason = Objects.requireNonNull(reason, "reason");
    this.onClose = Objects.requireNonNull(onClose, "onClose");
  }

  /** A lease that binds nothing, with the reason. */
  static CpuLease unbound(int tid, LeaseStatus status, String reason) {
    return unbound(tid, status, reason, () -> {});
  }

  /** A lease that binds nothing, with the reason; {@code onClose} runs when it is closed. */
  static CpuLease unbound(int tid, LeaseStatus status, String reason, Runnable onClose) {
    return new CpuLease(
        Optional.empty(), tid, -1, CpuSet.empty(), Optional.empty(), status, reason, onClose);
  }

  /** Returns the CPU, or -1 when nothing was bound. */
  public int cpu() {
    return cpu;
  }

  /** Returns the kernel thread id of the bound thread (-1 if unknown). */
  public int tid() {
    return tid;
  }

  /**
   * Returns what became of the request: {@link LeaseStatus#LOST} once a check found its reservation
   * lost (no I/O here: see {@link #verify()}), {@link LeaseStatus#RELEASED} after {@link #close()}.
   */
  public LeaseStatus status() {
    LeaseStatus s = status;
    boolean lost = reservation.isPresent() && reservation.get().isLost();
    return lost && (s == LeaseStatus.PINNED || s == LeaseStatus.SHARED) ? LeaseStatus.LOST : s;
  }

  /**
   * Checks that the reservation of the lease's CPU still holds (see {@link Reservation#verify()}).
   *
   * @return the status after the check: {@link LeaseStatus#LOST} if a lock file was deleted or
   *     replaced under it
   */
  public LeaseStatus verify() {
    reservation.ifPresent(Reservation::verify);
    return status();
  }

  /** Returns why: the CPU bound, or the run-out, platform or kernel reason. */
  public String reason() {
    return reason;
  }

  /**
   * Returns whether the thread was bound to a CPU and the lease is not closed yet (also when its
   * reservation is {@link LeaseStatus#LOST}).
   */
  public boolean isBound() {
    return status == LeaseStatus.PINNED || status == LeaseStatus.SHARED;
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
    if (!isBound()) {
      return status;
    }
    CpuSet now;
    try {
      now = kit.orElseThrow().backend().getAffinity(tid);
    } catch (AffinityException | UnsupportedOperationException e) {
      return status; // ESRCH: the thread ended; close() frees the CPU
    }
    if (!now.equals(CpuSet.of(cpu))) {
      synchronized (this) {
        if (isBound() && !closed.get()) {
          reason = "pinned to cpu " + cpu + " but the kernel now allows it on " + now;
          status = LeaseStatus.MOVED;
          kit.orElseThrow().countMoved();
        }
      }
    }
    return status;
  }

  /** Returns the mask the thread had before it was bound; empty when nothing was bound. */
  public CpuSet previousMask() {
    return previous;
  }

  /**
   * Restores the thread's previous mask (if the thread still lives), takes the thread out of the
   * kit's pinned threads and runs the seat's close hook (which frees the CPU for {@link
   * Seat#bindOnce()}). Idempotent.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    synchronized (this) {
      status = LeaseStatus.RELEASED;
    }
    try {
      if (!previous.isEmpty()) { // bound, or confined to a group's unpinned mask
        kit.orElseThrow().backend().setAffinity(tid, previous);
      }
      if (cpu >= 0) {
        kit.ifPresent(k -> k.dismiss(tid, cpu));
      }
    } catch (AffinityException e) {
      // ESRCH: the thread ended; nothing to restore.
    } finally {
      kit.ifPresent(k -> k.released(this));
      onClose.run();
    }
  }

  @Override
  public String toString() {
    return "CpuLease[tid=" + tid + ", cpu=" + cpu + ", " + status + ": " + reason + "]";
  }
}
