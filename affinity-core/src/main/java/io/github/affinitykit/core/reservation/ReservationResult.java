package io.github.affinitykit.core.reservation;

import java.util.Objects;
import java.util.Optional;

/**
 * What an attempt to reserve a CPU gave: the {@link Reservation} or why not, with the holder's pid
 * when another process holds the CPU.
 *
 * <p>Thread safety: immutable; the {@link Reservation} it carries is itself thread-safe.
 */
public final class ReservationResult {
  private final int cpu;
  private final ReservationStatus status;
  private final Reservation reservation;
  private final long holderPid;
  private final String reason;

  private ReservationResult(
      int cpu, ReservationStatus status, Reservation reservation, long holderPid, String reason) {
    this.cpu = cpu;
    this.status = status;
    this.reservation = reservation;
    this.holderPid = holderPid;
    this.reason = reason;
  }

  static ReservationResult reserved(Reservation reservation) {
    return new ReservationResult(
        reservation.cpu(),
        ReservationStatus.RESERVED,
        reservation,
        ProcessHandle.current().pid(),
        "reserved cpu " + reservation.cpu() + " (" + reservation.lockFile() + ")");
  }

  static ReservationResult failed(
      int cpu, ReservationStatus status, long holderPid, String reason) {
    if (status == ReservationStatus.RESERVED) {
      throw new IllegalArgumentException("status: RESERVED (expected: a failure)");
    }
    return new ReservationResult(cpu, status, null, holderPid, Objects.requireNonNull(reason));
  }

  /**
   * Returns the CPU asked for, or {@code -1} for {@link ReservationStatus#NONE_FREE}.
   *
   * @return the CPU id, 0-based; -1 for a result about several candidates
   */
  public int cpu() {
    return cpu;
  }

  /**
   * Returns the outcome.
   *
   * @return {@link ReservationStatus#RESERVED}, or the kind of failure; never null
   */
  public ReservationStatus status() {
    return status;
  }

  /**
   * Returns whether the CPU was reserved.
   *
   * @return true exactly when {@link #status()} is {@link ReservationStatus#RESERVED}
   */
  public boolean isReserved() {
    return reservation != null;
  }

  /**
   * Returns the reservation, or empty if the attempt failed.
   *
   * @return the reservation, to close once done with the CPU; empty on failure
   */
  public Optional<Reservation> reservation() {
    return Optional.ofNullable(reservation);
  }

  /**
   * Returns the reservation.
   *
   * @return the reservation, never null
   * @throws IllegalStateException with {@link #reason()} if the attempt failed
   */
  public Reservation orElseThrow() {
    if (reservation == null) {
      throw new IllegalStateException(reason);
    }
    return reservation;
  }

  /**
   * Returns the pid of the holder as the kernel names it: this process when reserved or held by
   * this JVM; another process holding a classic POSIX lock (OpenHFT's {@code AffinityLock}, or
   * Affinity Kit without native file calls); else {@code -1}. Never the pid a lock file's text
   * claims, which any user who can write the file may have written: {@link #reason()} shows that as
   * a claim.
   *
   * @return the holder's pid as the kernel gives it, or -1 if unknown
   */
  public long holderPid() {
    return holderPid;
  }

  /**
   * Returns a one-line explanation naming the CPU, the lock file and the holder or the error.
   *
   * @return one line for people, never empty
   */
  public String reason() {
    return reason;
  }

  @Override
  public String toString() {
    return status + ": " + reason;
  }
}
