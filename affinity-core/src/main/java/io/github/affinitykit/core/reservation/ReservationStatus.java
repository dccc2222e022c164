package io.github.affinitykit.core.reservation;

import io.github.affinitykit.core.cpu.CpuSet;

/**
 * The outcome of an attempt to reserve a CPU through {@link CpuReservations}.
 *
 * <p>Thread safety: immutable.
 */
public enum ReservationStatus {
  /** The CPU is reserved: the lock file is locked by this process. */
  RESERVED,
  /**
   * This JVM already holds the CPU: through this library, or through another user of the same lock
   * file in this JVM (OpenHFT {@code AffinityLock}, another class loader).
   */
  HELD_BY_THIS_JVM,
  /**
   * Another process holds the lock file; {@link ReservationResult#holderPid()} names it if known.
   */
  HELD_BY_OTHER_PROCESS,
  /**
   * The lock file cannot be created, opened for writing or locked (unwritable directory, no locks),
   * or is not a regular file of its own, which is refused, never followed or written.
   */
  UNAVAILABLE,
  /** {@link CpuReservations#reserveFirstFree(CpuSet)} found no CPU it could reserve. */
  NONE_FREE,
  /**
   * Of a held {@link Reservation} ({@link Reservation#verify()}): a lock file was deleted or
   * replaced under it, so it no longer keeps other processes off the CPU.
   */
  LOST,
  /**
   * The lock file belongs to another user whose mode does not let this user write it; the reason
   * names its owner, its mode and the fix ({@code chmod 666}, or another lock directory).
   */
  PERMISSION_DENIED
}
