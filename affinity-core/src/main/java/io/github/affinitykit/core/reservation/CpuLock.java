package io.github.affinitykit.core.reservation;

import io.github.affinitykit.core.internal.text.Printable;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;

/**
 * The two lock files of one CPU, locked in this order and released in the other:
 *
 * <ol>
 *   <li>{@code cpu-<N>.lock.affinitykit}: Affinity Kit's own, which no program deletes, so that two
 *       Affinity Kit processes never hold the same CPU whatever happens to the other file;
 *   <li>{@code cpu-<N>.lock}: OpenHFT's, for interoperation with {@code AffinityLock}, which
 *       deletes it on release (and so may delete it under our lock: see {@link #verify(int)}).
 * </ol>
 *
 * Both get the holder's text once both are locked and checked. What a file found ({@link
 * LockOutcome}) is worded here, once for both implementations, into the CPU's {@link
 * ReservationResult}; text read from a lock file is sanitised ({@link Printable#of(byte[],
 * boolean)}) and shown as what it claims before it reaches a reason, never used to decide anything
 * (the holder's pid is the kernel's word or unknown), and a refused file is logged once per
 * problem, not per attempt.
 *
 * <p>Thread safety: not thread-safe; {@link CpuReservations} calls it under its monitor.
 */
final class CpuLock {
  private static final System.Logger LOG = System.getLogger(CpuReservations.class.getName());

  private final LockFile own;
  private final LockFile compat;
  private final String[] refused = {"", ""}; // the last problem logged, per file
  private String text = "";
  private boolean lost;

  CpuLock(LockFile own, LockFile compat) {
    this.own = own;
    this.compat = compat;
  }

  /** The name of Affinity Kit's own lock file beside OpenHFT's {@code name}. */
  static String ownName(String name) {
    return name + ".affinitykit";
  }

  boolean isLocked() {
    return compat.isLocked();
  }

  Path path() {
    return compat.path();
  }

  /**
   * The text this JVM wrote while it holds the CPU, else what the files say now (sanitised), read
   * through the descriptors this JVM keeps: OpenHFT's file first, then ours.
   */
  String knownText() {
    if (isLocked()) {
      return text;
    }
    String shown = Printable.of(compat.read(), true);
    return shown.isEmpty() ? Printable.of(own.read(), true) : shown;
  }

  /**
   * Locks both files and writes the holder's text ({@code holder}, its UTF-8 {@code bytes}) into
   * them.
   *
   * @return null when locked, else the failure
   */
  ReservationResult tryLock(int cpu, String holder, byte[] bytes) {
    LockOutcome outcome = own.tryLock();
    if (outcome.kind() != LockOutcome.Kind.LOCKED) {
      return word(cpu, 0, own, outcome);
    }
    outcome = compat.tryLock();
    if (outcome.kind() != LockOutcome.Kind.LOCKED) {
      own.unlock();
      return word(cpu, 1, compat, outcome);
    }
    try {
      own.write(bytes);
      compat.write(bytes);
    } catch (IOException e) {
      compat.unlock();
      own.unlock();
      return unavailable(cpu, "cannot write " + compat.path() + ": " + LockText.describe(e));
    }
    text = holder;
    lost = false;
    return null;
  }

  /** The result of {@code cpu} for what file {@code which} (0 ours, 1 OpenHFT's) found. */
  private ReservationResult word(int cpu, int which, LockFile file, LockOutcome o) {
    Path path = file.path();
    switch (o.kind()) {
      case HELD:
        return heldBy(cpu, path, o.pid(), o.text());
      case REFUSED:
        String reason =
            path + " " + o.detail() + "; refused: never followed, truncated or written through";
        if (!o.detail().equals(refused[which])) {
          LOG.log(Level.WARNING, "cpu {0}: {1}", cpu, reason);
          refused[which] = o.detail();
        }
        return unavailable(cpu, reason);
      case PERMISSION_DENIED:
        return ReservationResult.failed(
            cpu,
            ReservationStatus.PERMISSION_DENIED,
            -1,
            "cpu "
                + cpu
                + ": "
                + path
                + " "
                + o.detail()
                + ", and this user may not open it for writing: ask its owner or root to chmod 666"
                + " it, or choose another lock directory with -D"
                + LockDirectory.PROPERTY
                + " or "
                + LockDirectory.ENV);
      case REPLACED:
        return unavailable(cpu, path + " " + o.detail());
      default:
        return unavailable(cpu, o.detail());
    }
  }

  private static ReservationResult unavailable(int cpu, String reason) {
    return ReservationResult.failed(
        cpu, ReservationStatus.UNAVAILABLE, -1, "cpu " + cpu + ": " + reason);
  }

  /**
   * Another holder has the lock: {@code pid} as the kernel names it (a classic POSIX lock; this
   * process: another user of the file in this JVM), else -1. The file's text is shown as what it
   * claims, never taken for the holder's pid: any user who can write the file may have written it.
   */
  private static ReservationResult heldBy(int cpu, Path path, long pid, byte[] text) {
    long self = ProcessHandle.current().pid();
    if (pid == self) {
      return ReservationResult.failed(
          cpu,
          ReservationStatus.HELD_BY_THIS_JVM,
          self,
          "cpu "
              + cpu
              + ": "
              + path
              + " is locked by another user of the file in this JVM"
              + " (OpenHFT AffinityLock? another class loader?)");
    }
    long holder = pid > 0 ? pid : -1;
    return ReservationResult.failed(
        cpu,
        ReservationStatus.HELD_BY_OTHER_PROCESS,
        holder,
        "cpu " + cpu + ": " + path + " is locked by " + LockText.describeHolder(holder, text));
  }

  /**
   * Checks that both paths still name the files locked (two stat calls).
   *
   * @return whether the reservation is newly found lost: a file deleted or replaced under it
   */
  boolean verify(int cpu) {
    if (lost || !isLocked()) {
      return false;
    }
    LockFile.Check ownCheck = own.check();
    LockFile.Check compatCheck = compat.check();
    if (ownCheck == LockFile.Check.INTACT && compatCheck == LockFile.Check.INTACT) {
      return false;
    }
    lost = true;
    LOG.log(
        Level.WARNING,
        "cpu {0}: reservation lost: {1} {2}, {3} {4}; another process may take the CPU",
        cpu,
        own.path().getFileName(),
        ownCheck,
        compat.path().getFileName(),
        compatCheck);
    return true;
  }

  boolean isLost() {
    return lost;
  }

  void release() {
    compat.unlock();
    own.unlock();
    text = "";
  }
}
