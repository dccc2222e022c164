package io.github.affinitykit.core;

import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.os.AffinityException;
import io.github.affinitykit.core.reservation.Reservation;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A thread bound to a CPU, and the CPU's reservation: the resource that pinning is. {@link
 * #close()} restores the thread's previous mask and frees the reservation, from any thread.
 *
 * <p>A lease whose {@link #status()} is not {@link LeaseStatus#PINNED} or {@link
 * LeaseStatus#SHARED} did not bind anything; {@link #reason()} says why. Closing it is harmless.
 *
 * <p>Thread safety: {@link #close()} is idempotent and may be called from any thread, including
 * concurrently; the accessors may be read from any thread.
 */
public final class CpuLease implements AutoCloseable {
  private static final AtomicLong MOVED_TOTAL = new AtomicLong();

  private final AffinityBackend backend;
  private final int tid;
  private final int cpu;
  private final CpuSet previous;
  private final Optional<Reservation> reservation;
  private final Runnable onClose;
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile LeaseStatus status;
  private volatile String reason;

  CpuLease(
      AffinityBackend backend,
      int tid,
      int cpu,
      CpuSet previous,
      Optional<Reservation> reservation,
      LeaseStatus status,
      String reason,
      Runnable onClose) {
    this.backend = Objects.requireNonNull(backend, "backend");
    this.tid = tid;
    this.cpu = cpu;
    this.previous = Objects.requireNonNull(previous, "previous");
    this.reservation = Objects.requireNonNull(reservation, "reservation");
    this.status = Objects.requireNonNull(status, "status");
    this.reason = Objects.requireNonNull(reason, "reason");
    this.onClose = Objects.requireNonNull(onClose, "onClose");
  }

  /**
   * Binds thread {@code tid} ({@code 0}: the calling thread) to {@code cpu}, remembering its mask.
   * On failure the reservation is freed and the lease says {@link LeaseStatus#FAILED} with the
   * kernel's reason: never throws for an OS refusal.
   */
  static CpuLease bind(
      AffinityBackend backend,
      int tid,
      int cpu,
      Optional<Reservation> reservation,
      LeaseStatus as,
      Runnable onClose) {
    if (!backend.isSupported()) {
      reservation.ifPresent(Reservation::close);
      return unbound(backend, tid, LeaseStatus.UNSUPPORTED, backend.reason(), onClose);
    }
    int target = tid == 0 ? backend.currentThreadId() : tid;
    CpuSet before = CpuSet.empty();
    try {
      before = backend.getAffinity(target);
      backend.setAffinity(target, CpuSet.of(cpu));
      return new CpuLease(
          backend, target, cpu, before, reservation, as, "bound to cpu " + cpu, onClose);
    } catch (AffinityException | UnsupportedOperationException | IllegalArgumentException e) {
      reservation.ifPresent(Reservation::close);
      return new CpuLease(
          backend,
          target,
          -1,
          before,
          Optional.empty(),
          LeaseStatus.FAILED,
          e.getMessage(),
          onClose);
    }
  }

  /** A lease that binds nothing, with the reason. */
  static CpuLease unbound(AffinityBackend backend, int tid, LeaseStatus status, String reason) {
    return unbound(backend, tid, status, reason, () -> {});
  }

  /** A lease that binds nothing, with the reason; {@code onClose} runs when it is closed. */
  static CpuLease unbound(
      AffinityBackend backend, int tid, LeaseStatus status, String reason, Runnable onClose) {
    return new CpuLease(
        backend, tid, -1, CpuSet.empty(), Optional.empty(), status, reason, onClose);
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
   * Checks that the reservation this lease owns still holds (see {@link Reservation#verify()}).
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
   * #movedTotal()} counts it once. A lease that is not bound, or whose thread has ended, is left as
   * it is.
   *
   * @return the status after the check
   */
  public LeaseStatus check() {
    if (!isBound()) {
      return status;
    }
    CpuSet now;
    try {
      now = backend.getAffinity(tid);
    } catch (AffinityException | UnsupportedOperationException e) {
      return status; // ESRCH: the thread ended; close() frees the CPU
    }
    if (!now.equals(CpuSet.of(cpu))) {
      synchronized (this) {
        if (isBound() && !closed.get()) {
          reason = "pinned to cpu " + cpu + " but the kernel now allows it on " + now;
          status = LeaseStatus.MOVED;
          MOVED_TOTAL.incrementAndGet();
        }
      }
    }
    return status;
  }

  /**
   * Returns how many leases {@link #check()} has found {@link LeaseStatus#MOVED} in this JVM: a
   * monotonic counter for metrics.
   */
  public static long movedTotal() {
    return MOVED_TOTAL.get();
  }

  /** Returns the mask the thread had before it was bound; empty when nothing was bound. */
  public CpuSet previousMask() {
    return previous;
  }

  /**
   * Restores the thread's previous mask (if the thread still lives) and frees the CPU. Idempotent.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    boolean wasBound;
    synchronized (this) {
      wasBound = isBound() || status == LeaseStatus.MOVED;
      status = LeaseStatus.RELEASED;
    }
    try {
      if (wasBound && !previous.isEmpty()) {
        backend.setAffinity(tid, previous);
      }
    } catch (AffinityException e) {
      // ESRCH: the thread ended; nothing to restore.
    } finally {
      reservation.ifPresent(Reservation::close);
      onClose.run();
    }
  }

  @Override
  public String toString() {
    return "CpuLease[tid=" + tid + ", cpu=" + cpu + ", " + status + ": " + reason + "]";
  }
}
