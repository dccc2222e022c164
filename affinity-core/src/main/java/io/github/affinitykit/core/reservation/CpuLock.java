package io.github.affinitykit.core.reservation;

import io.github.affinitykit.core.internal.text.Printable;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;

/**
 * The two lock files of one CPU, locked in this order and released in the other: {@code
 * cpu-<N>.lock.affinitykit} (Affinity Kit's own, deleted by nobody) and {@code cpu-<N>.lock}
 * (OpenHFT's, which it deletes on release: see {@link #verify(int)}). Both get the holder's text
 * once both are locked and checked; a file that cannot be used is logged once per reason.
 *
 * <p>Thread safety: not thread-safe; {@link CpuReservations} calls it under its monitor.
 */
final class CpuLock {
  private static final System.Logger LOG = System.getLogger(CpuReservations.class.getName());

  private final LockFile own;
  private final LockFile compat;
  private final String[] logged = {"", ""}; // the last reason logged, per file
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

  /** Locks both files and writes {@code bytes} (UTF-8 of {@code holder}): null, or the failure. */
  ReservationResult tryLock(int cpu, String holder, byte[] bytes) {
    ReservationResult failure = own.tryLock(cpu);
    if (failure != null) {
      return logged(0, failure);
    }
    failure = compat.tryLock(cpu);
    if (failure != null) {
      own.unlock();
      return logged(1, failure);
    }
    try {
      own.write(bytes);
      compat.write(bytes);
    } catch (IOException e) {
      compat.unlock();
      own.unlock();
      return ReservationResult.unavailable(
          cpu, "cannot write " + compat.path() + ": " + LockText.describe(e));
    }
    text = holder;
    lost = false;
    return null;
  }

  /** Logs a file that cannot be used ({@code which}: 0 ours, 1 OpenHFT's) once per reason. */
  private ReservationResult logged(int which, ReservationResult failure) {
    if (failure.status() == ReservationStatus.UNAVAILABLE
        && !failure.reason().equals(logged[which])) {
      LOG.log(Level.WARNING, failure.reason());
      logged[which] = failure.reason();
    }
    return failure;
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
    ReservationStatus ownCheck = own.check();
    ReservationStatus compatCheck = compat.check();
    if (ownCheck == ReservationStatus.RESERVED && compatCheck == ReservationStatus.RESERVED) {
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
