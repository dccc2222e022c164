package io.github.affinitykit.core.reservation;

import java.io.IOException;
import java.nio.file.Path;

/**
 * One lock file as this JVM holds it: opened without following links, a regular file with one name,
 * locked with an exclusive whole-file record lock, held only while the path names the locked inode.
 * The descriptor stays open between reservations (closing it would drop this process's classic
 * POSIX locks on the file). Implementations: {@link NativeLockFile}, {@link ChannelLockFile}.
 *
 * <p>Thread safety: not thread-safe; {@link CpuLock} calls it under {@link CpuReservations}'
 * monitor.
 */
interface LockFile {
  /** Returns the file's path. */
  Path path();

  /** Returns whether this JVM holds the lock. */
  boolean isLocked();

  /**
   * Tries once, without waiting, to lock the file the path names (a few attempts when the path
   * comes to name another file meanwhile).
   *
   * @param cpu the CPU the file reserves, named in a failure's reason
   * @return null when locked, or the failure: {@link ReservationStatus#HELD_BY_THIS_JVM}, {@link
   *     ReservationStatus#HELD_BY_OTHER_PROCESS}, {@link ReservationStatus#PERMISSION_DENIED}, or
   *     {@link ReservationStatus#UNAVAILABLE} (refused, replaced while locking, or an I/O error)
   */
  ReservationResult tryLock(int cpu);

  /** Replaces the content of the locked file with {@code text}. */
  void write(byte[] text) throws IOException;

  /** Returns the first bytes of the file through the open descriptor, empty if none. */
  byte[] read();

  /**
   * Checks that the path still names the locked file (one lstat).
   *
   * @return {@link ReservationStatus#RESERVED} if so; {@link ReservationStatus#LOST} if it names
   *     nothing (deleted) or another file (replaced, or the file gained another name)
   */
  ReservationStatus check();

  /** Unlocks the file; the descriptor stays open. */
  void unlock();
}
