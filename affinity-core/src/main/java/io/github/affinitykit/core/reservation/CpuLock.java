package io.github.affinitykit.core.reservation;

import io.github.affinitykit.core.internal.Printable;
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
 *       deletes it on release (and so may delete it under our lock: see {@link #verify()}).
 * </ol>
 *
 * Both get the holder's text once both are locked and checked.
 *
 * <p>Thread safety: not thread-safe; {@link CpuReservations} calls it under its monitor.
 */
final class CpuLock {
  private static final System.Logger LOG = System.getLogger(CpuReservations.class.getName());

  private final LockFile own;
  private final LockFile compat;
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
   * Locks both files and writes the holder's text into them.
   *
   * @return null when locked, else the failure
   */
  ReservationResult tryLock(int cpu, HolderText holder) {
    ReservationResult failure = own.tryLock(cpu);
    if (failure != null) {
      return failure;
    }
    failure = compat.tryLock(cpu);
    if (failure != null) {
      own.unlock();
      return failure;
    }
    byte[] bytes = holder.bytes();
    try {
      own.write(bytes);
      compat.write(bytes);
    } catch (IOException e) {
      compat.unlock();
      own.unlock();
      return LockOutcomes.unavailable(
          cpu, "cannot write " + compat.path() + ": " + LockText.describe(e));
    }
    text = holder.text();
    lost = false;
    return null;
  }

  /**
   * Checks that both paths still name the files locked (two lstat calls).
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
