package io.github.affinitykit.core.reservation;

import java.nio.file.Path;

/**
 * What one attempt to lock a lock file found ({@link LockFile#tryLock()}), as facts; {@link
 * CpuLock} words it into the {@link ReservationResult} of its CPU.
 *
 * <p>Thread safety: immutable (the text is not copied: do not modify it).
 *
 * @param kind what happened
 * @param pid of {@link Kind#HELD}: the holder as the kernel names it (a classic POSIX lock; this
 *     process's pid when another user of the file in this JVM holds it), or -1 if unknown
 * @param text of {@link Kind#HELD}: the first bytes of the file (untrusted: sanitise before use)
 * @param detail of the other failures: what was found, as {@code "is a symbolic link (expected: a
 *     regular file)"}, {@code "belongs to uid 0 (root), mode 0644"} or {@code "cannot lock
 *     /tmp/cpu-1.lock: ENOLCK (37)"}
 */
record LockOutcome(Kind kind, long pid, byte[] text, String detail) {
  /** The attempt's result. */
  enum Kind {
    /** Locked, and the path names the locked file. */
    LOCKED,
    /** Someone else holds the lock. */
    HELD,
    /** The path names something that is not a lock file of its own: refused, never written. */
    REFUSED,
    /**
     * The file exists but this user may not open it for writing ({@code EACCES}): another user's
     * file whose mode leaves others read-only. Left as it is: never changed or deleted.
     */
    PERMISSION_DENIED,
    /** The file could not be created, opened, examined or locked. */
    FAILED,
    /** The path kept naming another file than the one locked. */
    REPLACED
  }

  /** The file is locked. */
  static final LockOutcome LOCKED = new LockOutcome(Kind.LOCKED, -1, new byte[0], "");

  static LockOutcome held(long pid, byte[] text) {
    return new LockOutcome(Kind.HELD, pid, text, "");
  }

  static LockOutcome refused(String problem) {
    return new LockOutcome(Kind.REFUSED, -1, new byte[0], problem);
  }

  /** {@code file}, which {@code path} names, may not be opened for writing by this user. */
  static LockOutcome denied(Path path, FileStat file) {
    return new LockOutcome(Kind.PERMISSION_DENIED, -1, new byte[0], file.ownerAndMode(path));
  }

  static LockOutcome failed(String reason) {
    return new LockOutcome(Kind.FAILED, -1, new byte[0], reason);
  }

  static LockOutcome replaced(int attempts) {
    return new LockOutcome(
        Kind.REPLACED, -1, new byte[0], "was replaced " + attempts + " times while locking it");
  }
}
