package io.github.affinitykit.core.reservation;

import java.nio.file.Path;
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

  /** The CPU's lock file cannot be used: {@link ReservationStatus#UNAVAILABLE}, {@code reason}. */
  static ReservationResult unavailable(int cpu, String reason) {
    return failed(cpu, ReservationStatus.UNAVAILABLE, -1, "cpu " + cpu + ": " + reason);
  }

  /** {@code path} is not a lock file of its own ({@code problem}): refused, never written. */
  static ReservationResult refused(int cpu, Path path, String problem) {
    return unavailable(
        cpu, path + " " + problem + "; refused: never followed, truncated or written through");
  }

  /** {@code path} kept naming another file than the one locked, {@code attempts} times. */
  static ReservationResult replaced(int cpu, Path path, int attempts) {
    return unavailable(cpu, path + " was replaced " + attempts + " times while locking it");
  }

  /** {@code file}, which {@code path} names, may not be opened for writing by this user. */
  static ReservationResult denied(int cpu, Path path, FileStat file) {
    return failed(
        cpu,
        ReservationStatus.PERMISSION_DENIED,
        -1,
        String.format(
            "cpu %d: %s %s, and this user may not open it for writing: ask its owner or root to"
                + " chmod 666 it, or choose another lock directory with -D%s or %s",
            cpu, path, file.ownerAndMode(path), LockDirectory.PROPERTY, LockDirectory.ENV));
  }

  /**
   * Another holder has the lock of {@code path}: {@code pid} as the kernel names it, else -1 or 0.
   * The file's {@code text} is shown as a claim, never taken for the pid (anyone may write it).
   */
  static ReservationResult held(int cpu, Path path, long pid, byte[] text) {
    long self = ProcessHandle.current().pid();
    if (pid == self) {
      return failed(
          cpu,
          ReservationStatus.HELD_BY_THIS_JVM,
          self,
          String.format(
              "cpu %d: %s is locked by another user of the file in this JVM (OpenHFT"
                  + " AffinityLock? another class loader?)",
              cpu, path));
    }
    long holder = pid > 0 ? pid : -1;
    return failed(
        cpu,
        ReservationStatus.HELD_BY_OTHER_PROCESS,
        holder,
        "cpu " + cpu + ": " + path + " is locked by " + LockText.describeHolder(holder, text));
  }

  /** {@return the CPU asked for, or {@code -1} for {@link ReservationStatus#NONE_FREE}} */
  public int cpu() {
    return cpu;
  }

  /** {@return {@link ReservationStatus#RESERVED}, or the kind of failure; never null} */
  public ReservationStatus status() {
    return status;
  }

  /** {@return true exactly when {@link #status()} is {@link ReservationStatus#RESERVED}} */
  public boolean isReserved() {
    return reservation != null;
  }

  /** {@return the reservation, to close once done with the CPU; empty on failure} */
  public Optional<Reservation> reservation() {
    return Optional.ofNullable(reservation);
  }

  /**
   * {@return the reservation, never null}
   *
   * @throws IllegalStateException with {@link #reason()} if the attempt failed
   */
  public Reservation orElseThrow() {
    if (reservation == null) {
      throw new IllegalStateException(reason);
    }
    return reservation;
  }

  /**
   * {@return the holder's pid as the kernel names it, or -1 if unknown} Never the pid a lock file's
   * text claims.
   */
  public long holderPid() {
    return holderPid;
  }

  /** {@return a one-line explanation naming the CPU, the lock file and the holder or the error} */
  public String reason() {
    return reason;
  }

  @Override
  public String toString() {
    return status + ": " + reason;
  }
}
