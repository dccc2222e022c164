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
   * names another file meanwhile): null when locked, else the failure for {@code cpu}.
   */
  ReservationResult tryLock(int cpu);

  /** Replaces the content of the locked file with {@code text}. */
  void write(byte[] text) throws IOException;

  /** Returns the first bytes of the file through the open descriptor, empty if none. */
  byte[] read();

  /** Checks that the path still names the locked file: RESERVED, else LOST (deleted, replaced). */
  ReservationStatus check();

  /** Unlocks the file; the descriptor stays open. */
  void unlock();
}
