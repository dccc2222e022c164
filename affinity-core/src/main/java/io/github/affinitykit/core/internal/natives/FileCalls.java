package io.github.affinitykit.core.internal.natives;

/**
 * The calls of lock files, one implementation per native technology, chosen once by {@link
 * NativeLayer} (64-bit Linux only: {@code struct flock} is 32 bytes there). Every call returns its
 * result, or {@code -errno} when it fails ({@link Errno}): nothing throws for a kernel refusal.
 * Paths are NUL-terminated bytes in the JDK's file name encoding ({@link NativeLayer#cString}).
 *
 * <p>A count or buffer that would let the kernel read or write past a Java array (a {@code pread}
 * count over {@code buf.length}, a negative one that {@code size_t} makes huge, a path without its
 * NUL, a {@code statx} buffer under {@link #STATX_BYTES}) throws {@link IllegalArgumentException}
 * before any native call: a caller's bug, never a kernel refusal.
 *
 * <p>Thread safety: implementations are safe for concurrent use by any number of threads.
 */
public interface FileCalls {
  /** {@code O_RDWR}. */
  int O_RDWR = 02;

  /** {@code O_CREAT}. */
  int O_CREAT = 0100;

  /** {@code O_EXCL}. */
  int O_EXCL = 0200;

  /** {@code O_NONBLOCK}. */
  int O_NONBLOCK = 04000;

  /** {@code O_CLOEXEC}. */
  int O_CLOEXEC = 02000000;

  /** {@code F_GETLK}: classic POSIX record locks. */
  int F_GETLK = 5;

  /** {@code F_SETLK}. */
  int F_SETLK = 6;

  /** {@code F_OFD_GETLK}: open file description locks (Linux 3.15+). */
  int F_OFD_GETLK = 36;

  /** {@code F_OFD_SETLK}. */
  int F_OFD_SETLK = 37;

  /** {@code F_WRLCK}. */
  short F_WRLCK = 1;

  /** {@code F_UNLCK}. */
  short F_UNLCK = 2;

  /** {@code AT_FDCWD}. */
  int AT_FDCWD = -100;

  /** {@code AT_SYMLINK_NOFOLLOW}. */
  int AT_SYMLINK_NOFOLLOW = 0x100;

  /** {@code AT_EMPTY_PATH}. */
  int AT_EMPTY_PATH = 0x1000;

  /** Bytes of a {@code struct statx} buffer. */
  int STATX_BYTES = 256;

  /**
   * Checks a count passed with a buffer of {@code size} bytes: 0 to {@code size}. Every
   * implementation calls it first.
   *
   * @throws IllegalArgumentException naming the count and the rule
   */
  static void checkCount(String name, long count, int size) {
    if (count < 0) {
      throw new IllegalArgumentException(name + ": " + count + " (expected: >= 0)");
    }
    if (count > size) {
      throw new IllegalArgumentException(
          name + ": " + count + " (expected: <= " + size + ", the buffer's length)");
    }
  }

  /**
   * Checks that a path ends with its NUL, so that the kernel stops inside the array.
   *
   * @throws IllegalArgumentException naming its length and the rule
   */
  static void checkPath(byte[] path) {
    if (path.length == 0 || path[path.length - 1] != 0) {
      throw new IllegalArgumentException(
          "path: "
              + path.length
              + " bytes without a closing NUL (expected: NUL-terminated, as"
              + " NativeLayer.cString makes it)");
    }
  }

  /**
   * Checks {@code statx}'s arguments: a NUL-terminated path ({@link #checkPath}) and a buffer of at
   * least {@link #STATX_BYTES}, which the kernel fills whole.
   *
   * @throws IllegalArgumentException naming the value and the rule
   */
  static void checkStatx(byte[] path, byte[] buf) {
    checkPath(path);
    if (buf.length < STATX_BYTES) {
      throw new IllegalArgumentException(
          "buf.length: " + buf.length + " (expected: >= " + STATX_BYTES + ", STATX_BYTES)");
    }
  }

  /** Returns the ABI these calls were loaded for ({@code O_NOFOLLOW}, system call numbers). */
  LinuxAbi abi();

  /** {@code open(path, flags, mode)}: a descriptor, or {@code -errno}. */
  int open(byte[] path, int flags, int mode);

  /** {@code close(fd)}: 0 or {@code -errno}. */
  int close(int fd);

  /**
   * {@code fcntl(fd, cmd, &flock)} with {@code cmd} a set-lock command and a whole-file {@code
   * flock} of {@code type}, without waiting: 0, or {@code -errno} ({@code -EAGAIN}/{@code -EACCES}:
   * held elsewhere).
   */
  int setLock(int fd, int cmd, short type);

  /**
   * {@code fcntl(fd, cmd, &flock)} with {@code cmd} a get-lock command, asking about a whole-file
   * write lock: the pid of a classic lock in the way; 0 when none is in the way or the one in the
   * way is an open file description lock (which has no pid); {@code -errno} on failure.
   */
  long lockHolder(int fd, int cmd);

  /** {@code pread(fd, buf, count, offset)}: bytes read, or {@code -errno}. */
  long pread(int fd, byte[] buf, int count, long offset);

  /** {@code pwrite(fd, buf, count, offset)}: bytes written, or {@code -errno}. */
  long pwrite(int fd, byte[] buf, int count, long offset);

  /** {@code ftruncate(fd, length)}: 0 or {@code -errno}. */
  int ftruncate(int fd, long length);

  /**
   * {@code fchmod(fd, mode)}: 0 or {@code -errno}. The mode is set as given: unlike the mode asked
   * of {@code open}, it is not cut by the umask.
   */
  int fchmod(int fd, int mode);

  /** {@code geteuid()}: the effective user id of this process (it cannot fail). */
  int effectiveUid();

  /**
   * {@code statx(dirfd, path, flags, mask, buf)} through {@code syscall(2)} into a buffer of {@link
   * #STATX_BYTES}: 0, or {@code -errno} ({@code -ENOSYS} before Linux 4.11 or where the ABI's
   * number is unknown).
   */
  int statx(int dirfd, byte[] path, int flags, int mask, byte[] buf);
}
