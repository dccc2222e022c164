package io.github.affinitykit.core.reservation;

import static io.github.affinitykit.core.internal.natives.FileCalls.F_GETLK;
import static io.github.affinitykit.core.internal.natives.FileCalls.F_OFD_GETLK;
import static io.github.affinitykit.core.internal.natives.FileCalls.F_OFD_SETLK;
import static io.github.affinitykit.core.internal.natives.FileCalls.F_SETLK;
import static io.github.affinitykit.core.internal.natives.FileCalls.F_UNLCK;
import static io.github.affinitykit.core.internal.natives.FileCalls.F_WRLCK;

import io.github.affinitykit.core.internal.natives.Errno;
import io.github.affinitykit.core.internal.natives.FileCalls;
import io.github.affinitykit.core.internal.natives.NativeLayer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/**
 * A {@link LockFile} through libc ({@link FileCalls}): {@code open} with {@code
 * O_NOFOLLOW|O_CLOEXEC|O_NONBLOCK} ({@code O_CREAT|O_EXCL} only when nothing is there, so a
 * dangling link is never followed), the descriptor's {@code statx} must be a regular file with one
 * link, then an open file description lock ({@code F_OFD_SETLK}; classic {@code F_SETLK} before
 * Linux 3.15), then the path's {@code statx} must name the same inode, else it was replaced and the
 * attempt repeats. Nothing is written before all that holds. See ARCHITECTURE.md, "Reservations".
 *
 * <p>Thread safety: not thread-safe (see {@link LockFile}).
 */
final class NativeLockFile implements LockFile {
  private static final int MAX_ATTEMPTS = 5;
  private static final int MAX_TEXT_BYTES = 256;
  private static final int MODE = 0666;

  private final Path path;
  private final FileCalls calls;
  private final byte[] cpath;
  private byte[] seen = new byte[64];
  private int fd = -1;
  private FileStat opened;
  private boolean locked;
  private boolean classic;

  NativeLockFile(Path path, FileCalls calls) {
    this.path = path;
    this.calls = calls;
    this.cpath = NativeLayer.cString(path.toString());
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
          continue; // created or deleted by someone else meanwhile: look again
        }
      }
      int err = -setLock(F_WRLCK);
      if (err == Errno.EAGAIN || err == Errno.EACCES) {
        long pid = calls.lockHolder(fd, classic ? F_GETLK : F_OFD_GETLK);
        return ReservationResult.held(cpu, path, pid, read());
      }
      if (err != 0) {
        closeFd();
        return ReservationResult.unavailable(
            cpu, "cannot lock " + path + ": " + Errno.describe(err));
      }
      if (check() == ReservationStatus.RESERVED) {
        locked = true;
        return null;
      }
      setLock(F_UNLCK);
      closeFd(); // the path names another file now: lock that one
    }
    return ReservationResult.replaced(cpu, path, MAX_ATTEMPTS);
  }

  private int setLock(short type) {
    int r = calls.setLock(fd, classic ? F_SETLK : F_OFD_SETLK, type);
    if (r == -Errno.EINVAL && !classic) {
      classic = true; // kernel older than 3.15: no open file description locks
      return setLock(type);
    }
    return r;
  }

  /** Opens the file; null with {@code fd < 0} when it appeared or went between stat and open. */
  private ReservationResult open(int cpu) {
    try {
      Optional<FileStat> there = FileStat.lstat(calls, path, cpath);
      if (there.isPresent() && there.get().problem().isPresent()) {
        return ReservationResult.refused(cpu, path, there.get().problem().get());
      }
      boolean create = there.isEmpty();
      int flags =
          FileCalls.O_RDWR | FileCalls.O_CLOEXEC | FileCalls.O_NONBLOCK | calls.abi().noFollow();
      int r =
          calls.open(cpath, create ? flags | FileCalls.O_CREAT | FileCalls.O_EXCL : flags, MODE);
      if (r == -Errno.EEXIST || r == -Errno.ENOENT) {
        return null; // raced with another creator or deleter: look again
      }
      if (r == -Errno.EACCES && !create) {
        return ReservationResult.denied(cpu, path, there.get());
      }
      if (r < 0) {
        return ReservationResult.unavailable(
            cpu, "cannot open " + path + " for writing: " + Errno.describe(-r));
      }
      fd = r;
      opened = FileStat.ofDescriptor(calls, fd);
      Optional<String> problem = opened.problem();
      if (problem.isPresent()) {
        closeFd();
        return ReservationResult.refused(cpu, path, problem.get());
      }
      shareIfOurs(create);
      return null;
    } catch (IOException e) {
      closeFd();
      return ReservationResult.unavailable(
          cpu, "cannot stat " + path + ": " + LockText.describe(e));
    }
  }

  /**
   * Makes a file this process created {@code 0666} ({@code fchmod} is not cut by the umask); a file
   * found there is never changed (it may be OpenHFT's). A failure is left for other users to meet.
   */
  private void shareIfOurs(boolean created) {
    if (created) {
      calls.fchmod(fd, MODE);
    }
  }

  /**
   * Writes {@code text} only when the file holds other text, truncating only when the old text was
   * longer: {@code ftruncate} on ext4 costs more than the rest of the reserve path.
   */
  @Override
  public void write(byte[] text) throws IOException {
    byte[] seen = seen(text.length + 1);
    long had = check("pread", calls.pread(fd, seen, seen.length, 0));
    if (had == text.length && Arrays.equals(seen, 0, text.length, text, 0, text.length)) {
      return;
    }
    long written = 0;
    while (written < text.length) {
      byte[] rest = written == 0 ? text : Arrays.copyOfRange(text, (int) written, text.length);
      written += check("pwrite", calls.pwrite(fd, rest, rest.length, written));
    }
    if (had > text.length) {
      check("ftruncate", calls.ftruncate(fd, text.length));
    }
  }

  private long check(String call, long result) throws IOException {
    if (result < 0) {
      throw new IOException(call + " " + path + ": " + Errno.describe((int) -result));
    }
    return result;
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
    long n = calls.pread(fd, buf, buf.length, 0);
    return Arrays.copyOf(buf, (int) Math.max(0, n));
  }

  @Override
  public ReservationStatus check() {
    try {
      Optional<FileStat> now = FileStat.lstat(calls, path, cpath);
      if (now.isEmpty()) {
        return ReservationStatus.LOST; // deleted
      }
      return now.get().sameFile(opened) && now.get().nlink() == 1
          ? ReservationStatus.RESERVED
          : ReservationStatus.LOST; // replaced
    } catch (IOException e) {
      return ReservationStatus.LOST; // the directory itself went away or became unreadable
    }
  }

  @Override
  public void unlock() {
    if (locked) {
      locked = false;
      setLock(F_UNLCK); // parked: the next tryLock checks it again
    }
  }

  private void closeFd() {
    if (fd >= 0) {
      calls.close(fd); // drops our lock too; the descriptor is gone either way
      fd = -1;
    }
  }
}
