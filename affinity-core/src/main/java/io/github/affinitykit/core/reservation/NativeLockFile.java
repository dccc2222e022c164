package io.github.affinitykit.core.reservation;

import com.sun.jna.LastErrorException;
import io.github.affinitykit.core.internal.Errno;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/**
 * A {@link LockFile} through libc ({@link LockCalls}): {@code open} with {@code O_NOFOLLOW} (and
 * {@code O_CREAT|O_EXCL} only when nothing is there, so a dangling link is never followed), the
 * descriptor's own {@code fstat} must be a regular file with one link, the lock is taken, then
 * {@code lstat} of the path must name the same device and inode, else the file was replaced or
 * deleted while locking (OpenHFT deletes on release) and the attempt is repeated on the new file.
 * Nothing is written before all that holds.
 *
 * <p>Thread safety: not thread-safe (see {@link LockFile}).
 */
final class NativeLockFile implements LockFile {
  private static final int MAX_ATTEMPTS = 5;
  private static final int MAX_TEXT_BYTES = 256;

  private final Path path;
  private String refused = "";
  private final String cpath;
  private byte[] statPath; // the path encoded for statx, once
  private final byte[] flock = new byte[32];
  private byte[] seen = new byte[64];
  private int fd = -1;
  private FileStat opened;
  private boolean locked;

  NativeLockFile(Path path) {
    this.path = path;
    this.cpath = path.toString();
  }

  @Override
  public Path path() {
    return path;
  }

  @Override
  public boolean isLocked() {
    return locked;
  }

  @Override
  public ReservationResult tryLock(int cpu) {
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (fd < 0) {
        ReservationResult failure = open(cpu);
        if (failure != null) {
          return failure;
        }
        if (fd < 0) {
          continue; // created by someone else meanwhile: open theirs
        }
      }
      int err = LockCalls.setLock(fd, LockCalls.F_WRLCK, flock);
      if (err == LockCalls.EAGAIN || err == LockCalls.EACCES) {
        return LockOutcomes.heldBy(cpu, path, LockCalls.blockingPid(fd, flock), read());
      }
      if (err != 0) {
        closeFd();
        return LockOutcomes.unavailable(cpu, "cannot lock " + path + ": " + Errno.describe(err));
      }
      Check check = check();
      if (check == Check.INTACT) {
        locked = true;
        return null;
      }
      LockCalls.setLock(fd, LockCalls.F_UNLCK, flock);
      closeFd(); // the path names another file now: lock that one
    }
    return LockOutcomes.replaced(cpu, path, MAX_ATTEMPTS);
  }

  /** Opens the file; null with {@code fd < 0} when it appeared between lstat and create. */
  private ReservationResult open(int cpu) {
    try {
      Optional<FileStat> there = FileStat.lstat(path);
      if (there.isPresent() && there.get().problem().isPresent()) {
        return refuse(cpu, there.get().problem().get());
      }
      try {
        fd = LockCalls.openNoFollow(cpath, there.isEmpty());
      } catch (LastErrorException e) {
        if (e.getErrorCode() == LockCalls.EEXIST || e.getErrorCode() == LockCalls.ENOENT) {
          return null; // raced with another creator or deleter: look again
        }
        return LockOutcomes.unavailable(
            cpu, "cannot open " + path + " for writing: " + Errno.describe(e.getErrorCode()));
      }
      opened = FileStat.ofDescriptor(fd);
      Optional<String> problem = opened.problem();
      if (problem.isPresent()) {
        closeFd();
        return refuse(cpu, problem.get());
      }
      return null;
    } catch (IOException e) {
      closeFd();
      return LockOutcomes.unavailable(cpu, "cannot stat " + path + ": " + LockText.describe(e));
    }
  }

  private ReservationResult refuse(int cpu, String problem) {
    ReservationResult r = LockOutcomes.refused(cpu, path, problem, refused);
    refused = problem;
    return r;
  }

  /**
   * Reads the file first and writes nothing when it already holds {@code text} (this JVM held the
   * CPU before, within the same second); else writes it over the old text and truncates only if the
   * old text was longer. {@code ftruncate} on ext4 costs more than everything else on the reserve
   * path, and a {@code pread} costs less than a {@code pwrite}.
   */
  @Override
  public void write(byte[] text) throws IOException {
    try {
      byte[] seen = seen(text.length + 1);
      long had = LockCalls.pread(fd, seen, seen.length, 0);
      if (had == text.length && Arrays.equals(seen, 0, text.length, text, 0, text.length)) {
        return;
      }
      long written = 0;
      while (written < text.length) {
        byte[] rest = written == 0 ? text : Arrays.copyOfRange(text, (int) written, text.length);
        written += LockCalls.pwrite(fd, rest, rest.length, written);
      }
      if (had > text.length) {
        LockCalls.ftruncate(fd, text.length);
      }
    } catch (LastErrorException e) {
      throw new IOException("write " + path + ": " + Errno.describe(e.getErrorCode()), e);
    }
  }

  private byte[] seen(int bytes) {
    if (seen.length < bytes) {
      seen = new byte[bytes];
    }
    return seen;
  }

  @Override
  public byte[] read() {
    if (fd < 0) {
      return new byte[0];
    }
    byte[] buf = new byte[MAX_TEXT_BYTES];
    try {
      long n = LockCalls.pread(fd, buf, buf.length, 0);
      return Arrays.copyOf(buf, (int) Math.max(0, n));
    } catch (LastErrorException e) {
      return new byte[0];
    }
  }

  @Override
  public Check check() {
    try {
      if (statPath == null) {
        statPath = StatCalls.cString(cpath);
      }
      Optional<FileStat> now = FileStat.lstat(path, statPath);
      if (now.isEmpty()) {
        return Check.UNLINKED;
      }
      return now.get().sameFile(opened) && now.get().nlink() == 1 ? Check.INTACT : Check.REPLACED;
    } catch (IOException e) {
      return Check.UNLINKED; // the directory itself went away or became unreadable
    }
  }

  @Override
  public void unlock() {
    if (locked) {
      locked = false;
      LockCalls.setLock(fd, LockCalls.F_UNLCK, flock); // parked: the next tryLock checks it again
    }
  }

  private void closeFd() {
    if (fd >= 0) {
      try {
        LockCalls.close(fd); // drops our lock too
      } catch (LastErrorException e) {
        // the descriptor is gone either way
      }
      fd = -1;
    }
  }
}
