package io.github.affinitykit.isolation;

import io.github.affinitykit.core.internal.natives.Errno;
import io.github.affinitykit.core.internal.natives.FileCalls;
import io.github.affinitykit.core.internal.natives.NativeLayer;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * A lock file of the journal directory held with an open file description lock ({@code
 * F_OFD_SETLK}, Linux 3.15+, through the native layer's {@link FileCalls}): the directory's {@code
 * isolation.lock}, held while recovering and isolating or releasing, and each isolation's {@code
 * isolation-<id>.owner}, held for the owner's lifetime. The kernel drops the lock when the owner
 * dies, however it dies, in whatever pid namespace; a thread's exit does not drop it, nor does
 * closing another descriptor of the file (as it would a classic POSIX lock), so {@link #held} asks
 * the kernel even about a lock of this very process. The file is opened without following a link,
 * created {@code 0600} if missing, and refused unless {@link Trusted}. Where the native layer has
 * no file calls, or the kernel no such locks, every call fails with the reason: an isolation is
 * then refused, a journal's owner {@link OwnerState#UNKNOWN}.
 *
 * <p>Thread safety: {@link #close()} is idempotent; one owner uses an instance.
 */
final class LockedFile implements AutoCloseable {
  private static final short F_RDLCK = 0;
  private static final int O_RDONLY = 0;
  private static final long POLL_NS = Duration.ofMillis(10).toNanos();

  private final FileCalls calls;
  private final Path path;
  private int fd;

  private LockedFile(FileCalls calls, Path path, int fd) {
    this.calls = calls;
    this.path = path;
    this.fd = fd;
  }

  /**
   * Locks {@code path} exclusively, trying again until {@code wait} is over while someone else
   * holds it.
   *
   * @return the lock; empty if it stayed held
   * @throws IOException if the file cannot be trusted, opened or locked
   */
  static Optional<LockedFile> lock(Path path, Duration wait) throws IOException {
    long deadline = System.nanoTime() + wait.toNanos();
    while (true) {
      Optional<LockedFile> l = tryLock(path);
      if (l.isPresent() || System.nanoTime() - deadline >= 0) {
        return l;
      }
      LockSupport.parkNanos(POLL_NS); // another process holds it: nothing to wait on but time
    }
  }

  /** One attempt of {@link #lock}. */
  static Optional<LockedFile> tryLock(Path path) throws IOException {
    FileCalls calls = calls(path);
    int fd = open(calls, path, FileCalls.O_RDWR | FileCalls.O_CREAT);
    int err = -calls.setLock(fd, FileCalls.F_OFD_SETLK, FileCalls.F_WRLCK);
    if (err == 0) {
      return Optional.of(new LockedFile(calls, path, fd));
    }
    calls.close(fd);
    if (err == Errno.EAGAIN || err == Errno.EACCES) {
      return Optional.empty();
    }
    throw failure(path, err);
  }

  /**
   * Whether a live process holds the lock on {@code path}: asked by taking a shared lock for an
   * instant (no lock: false; two askers do not disturb each other).
   *
   * @return false if the file is absent or nobody holds it
   * @throws IOException if the file cannot be trusted, opened or asked about
   */
  static boolean held(Path path) throws IOException {
    if (!Files.exists(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return false;
    }
    FileCalls calls = calls(path);
    int fd;
    try {
      fd = open(calls, path, O_RDONLY);
    } catch (java.nio.file.NoSuchFileException e) {
      return false; // its owner closed it meanwhile
    }
    try {
      int err = -calls.setLock(fd, FileCalls.F_OFD_SETLK, F_RDLCK);
      if (err == Errno.EAGAIN || err == Errno.EACCES) {
        return true;
      }
      if (err != 0) {
        throw failure(path, err);
      }
      return false;
    } finally {
      calls.close(fd); // drops the shared lock with the only descriptor of its description
    }
  }

  Path path() {
    return path;
  }

  /** Deletes the file, then drops the lock: a later {@link #held} finds nothing. */
  void closeAndDelete() {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      // left unlocked, it reads as not held: the same as gone
    }
    close();
  }

  /** Drops the lock (closes the descriptor). */
  @Override
  public synchronized void close() {
    if (fd >= 0) {
      calls.close(fd);
      fd = -1;
    }
  }

  private static FileCalls calls(Path path) throws IOException {
    NativeLayer layer = NativeLayer.system();
    return layer
        .files()
        .orElseThrow(
            () ->
                new FileSystemException(
                    path.toString(), null, "no file lock calls here: " + layer.why()));
  }

  private static int open(FileCalls calls, Path path, int access) throws IOException {
    Optional<String> why = Trusted.file("lock file", path, Long.MAX_VALUE);
    if (why.isPresent()) {
      throw new FileSystemException(path.toString(), null, why.get());
    }
    int flags = access | FileCalls.O_CLOEXEC | FileCalls.O_NONBLOCK | calls.abi().noFollow();
    int fd = calls.open(NativeLayer.cString(path.toString()), flags, 0600);
    if (fd == -Errno.ENOENT) {
      throw new java.nio.file.NoSuchFileException(path.toString());
    }
    if (fd < 0) {
      throw failure(path, -fd);
    }
    Optional<String> after = Trusted.file("lock file", path, Long.MAX_VALUE);
    if (after.isPresent()) { // swapped between the look and the open: only its owner could
      calls.close(fd);
      throw new FileSystemException(path.toString(), null, after.get());
    }
    return fd;
  }

  private static IOException failure(Path path, int err) {
    String why =
        err == Errno.EINVAL
            ? "no open file description locks (expected: Linux 3.15 or later)"
            : Errno.describe(err);
    return new FileSystemException(path.toString(), null, "cannot lock: " + why);
  }
}
