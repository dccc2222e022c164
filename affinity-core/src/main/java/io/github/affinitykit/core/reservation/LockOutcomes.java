package io.github.affinitykit.core.reservation;

import io.github.affinitykit.core.internal.Printable;
import java.lang.System.Logger.Level;
import java.nio.file.Path;

/**
 * The failures of {@link LockFile#tryLock(int)}, worded once for both implementations. Text read
 * from a lock file is sanitised ({@link Printable#of(byte[], boolean)}) before it reaches a reason.
 *
 * <p>Thread safety: stateless.
 */
final class LockOutcomes {
  private static final System.Logger LOG = System.getLogger(CpuReservations.class.getName());
  private static final long PID = ProcessHandle.current().pid();

  private LockOutcomes() {}

  /** The file could not be created, opened, locked or written. */
  static ReservationResult unavailable(int cpu, String reason) {
    return ReservationResult.failed(
        cpu, ReservationStatus.UNAVAILABLE, -1, "cpu " + cpu + ": " + reason);
  }

  /**
   * The path names something that is not a lock file of its own: refused, and logged if {@code
   * problem} differs from {@code lastProblem} (one line per planted file, not per attempt).
   */
  static ReservationResult refused(int cpu, Path path, String problem, String lastProblem) {
    String reason =
        path + " " + problem + "; refused: never followed, truncated or written through";
    if (!problem.equals(lastProblem)) {
      LOG.log(Level.WARNING, "cpu {0}: {1}", cpu, reason);
    }
    return unavailable(cpu, reason);
  }

  /**
   * Another holder has the lock: {@code pid} as the kernel names it (classic POSIX locks), else -1
   * and the pid the file's {@code text} names.
   */
  static ReservationResult heldBy(int cpu, Path path, long pid, byte[] text) {
    if (pid == PID) {
      return ReservationResult.failed(
          cpu,
          ReservationStatus.HELD_BY_THIS_JVM,
          PID,
          "cpu "
              + cpu
              + ": "
              + path
              + " is locked by another user of the file in this JVM"
              + " (OpenHFT AffinityLock? another class loader?)");
    }
    long holder = pid > 0 ? pid : LockText.pidOf(text);
    return ReservationResult.failed(
        cpu,
        ReservationStatus.HELD_BY_OTHER_PROCESS,
        holder,
        "cpu " + cpu + ": " + path + " is locked by " + LockText.describeHolder(holder, text));
  }

  /** The path kept naming another file than the one locked. */
  static ReservationResult replaced(int cpu, Path path, int attempts) {
    return unavailable(cpu, path + " was replaced " + attempts + " times while locking it");
  }
}
