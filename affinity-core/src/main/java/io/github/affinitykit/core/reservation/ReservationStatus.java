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
   * The lock file cannot be created, opened for writing or locked: unwritable directory, file
   * system without locks, or it is not a regular file of its own (a symbolic link, FIFO, directory,
   * or a file with another hard link), which is refused, never followed or written. {@link
   * ReservationResult#reason()} says which. (Another user's lock file this user may not open is
   * {@link #PERMISSION_DENIED}.)
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
   * The lock file exists but belongs to another user whose mode does not let this user open it for
   * writing (a file made under a umask by an older version or another program). {@link
   * ReservationResult#reason()} names the file, its owner and mode, and the fix: its owner or root
   * runs {@code chmod 666} on it, or this JVM uses another lock directory ({@code
   * -Daffinitykit.lock.dir}, {@code AFFINITYKIT_LOCK_DIR}). The file is left as it is.
   */
  PERMISSION_DENIED
}
