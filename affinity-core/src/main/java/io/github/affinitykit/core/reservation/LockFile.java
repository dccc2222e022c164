package io.github.affinitykit.core.reservation;

import java.io.IOException;
import java.nio.file.Path;

/**
 * One lock file as this JVM holds it: opened without following symbolic links, refused unless it is
 * a regular file with a single name, locked with an exclusive whole-file record lock, and held only
 * while the path still names the locked inode. The descriptor stays open between reservations
 * (parked) and is closed only when the path no longer names its file: closing a descriptor drops
 * the classic POSIX locks this process holds on the file (another library's, in this JVM).
 *
 * <p>Implementations: {@link NativeLockFile} (libc through the native layer's {@code FileCalls}:
 * the checks are on the descriptor) and {@link ChannelLockFile} (Java's {@code FileChannel}, where
 * the native layer has no file calls: the checks are by path around the open, a weaker guarantee).
 * Both say what they found as a {@link LockOutcome}, never worded for a CPU: {@link CpuLock} does
 * that.
 *
 * <p>Thread safety: not thread-safe; {@link CpuLock} calls it under {@link CpuReservations}'
 * monitor.
 */
interface LockFile {
  /** What {@link #check()} finds. */
  enum Check {
    /** The path names the locked file. */
    INTACT,
    /** The path names nothing: the locked file was deleted. */
    UNLINKED,
    /** The path names another file, or the locked file gained another name. */
    REPLACED
  }

  /** Returns the file's path. */
  Path path();

  /** Returns whether this JVM holds the lock. */
  boolean isLocked();

  /**
   * Tries once, without waiting, to lock the file the path names (a few attempts when the path
   * comes to name another file meanwhile).
   *
   * @return {@link LockOutcome#LOCKED}, or what kept it from locking
   */
  LockOutcome tryLock();

  /** Replaces the content of the locked file with {@code text}. */
  void write(byte[] text) throws IOException;

  /** Returns the first bytes of the file through the open descriptor, empty if none. */
  byte[] read();

  /** Checks that the path still names the locked file (one lstat); {@link Check#INTACT} if so. */
  Check check();

  /** Unlocks the file; the descriptor stays open. */
  void unlock();
}
