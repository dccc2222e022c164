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
 * A {@link LockFile} through libc ({@link FileCalls} of the native layer): {@code open} with {@code
 * O_NOFOLLOW|O_CLOEXEC|O_NONBLOCK} (and {@code O_CREAT|O_EXCL} only when nothing is there, so a
 * dangling link is never followed), the descriptor's own {@code statx} must be a regular file with
 * one link, a file this process created gets mode {@code 0666} through {@code fchmod} whatever the
 * umask, so that every user of a shared directory can lock it (a file it did not create is left as
 * it is, whoever owns it, and {@code EACCES} on it is {@link ReservationStatus#PERMISSION_DENIED}),
 * the lock is taken, then {@code statx} of the path must name the same device and inode, else the
 * file was replaced or deleted while locking (OpenHFT deletes on release) and the attempt is
 * repeated on the new file. Nothing is written before all that holds.
 *
 * <p>Locks are open file description locks ({@code F_OFD_SETLK}, Linux 3.15+): they conflict with
 * the classic POSIX locks of Java's {@code FileChannel} (OpenHFT's) in every process, this one
 * included, and closing another descriptor of the file does not drop them. On an older kernel
 * ({@code EINVAL}) the classic {@code F_SETLK} is used instead.
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
   * Gives every user of the directory read and write on the file this process just created ({@code
   * fchmod}, not cut by the umask as the mode asked of {@code open} is). A file found there is
   * never changed, not even one of this user's: it may be another program's (OpenHFT's), and its
   * mode is its owner's choice. A failure is left for the other users to meet ({@link
   * ReservationStatus#PERMISSION_DENIED} names the file, its owner and the fix): this process can
   * lock it.
   */
  private void shareIfOurs(boolean created) {
    if (created) {
      calls.fchmod(fd, MODE);
    }
  }

  /**
   * Reads the file first and writes nothing when it already holds {@code text} (this JVM held the
   * CPU before, within the same second); else writes it over the old text and truncates only if the
   * old text was longer. {@code ftruncate} on ext4 costs more than everything else on the reserve
   * path, and a {@code pread} costs less than a {@code pwrite}.
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
