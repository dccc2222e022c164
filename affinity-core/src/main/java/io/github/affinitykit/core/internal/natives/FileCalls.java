package io.github.affinitykit.core.internal.natives;

/**
 * The calls of lock files, one implementation per native technology, chosen once by {@link
 * NativeLayer} (64-bit Linux only: {@code struct flock} is 32 bytes there). Every call returns its
 * result, or {@code -errno} ({@link Errno}). Paths are NUL-terminated ({@link
 * NativeLayer#cString}).
 *
 * <p>A count or buffer that would let the kernel read or write past a Java array (a count over
 * {@code buf.length} or negative, a path without its NUL, a short {@code statx} buffer) throws
 * {@link IllegalArgumentException} before any native call: a caller's bug.
 *
 * <p>Thread safety: implementations are safe for concurrent use by any number of threads.
 */
public interface FileCalls {
  int O_RDWR = 02;
  int O_CREAT = 0100;
  int O_EXCL = 0200;
  int O_NONBLOCK = 04000;
  int O_CLOEXEC = 02000000;
  int F_GETLK = 5; // classic POSIX record locks
  int F_SETLK = 6;
  int F_OFD_GETLK = 36; // open file description locks (Linux 3.15+)
  int F_OFD_SETLK = 37;
  short F_WRLCK = 1;
  short F_UNLCK = 2;
  int AT_FDCWD = -100;
  int AT_SYMLINK_NOFOLLOW = 0x100;
  int AT_EMPTY_PATH = 0x1000;
  int STATX_BYTES = 256; // bytes of a struct statx buffer

  /** Checks a count passed with a buffer of {@code size} bytes: 0 to {@code size}. */
  static void checkCount(String name, long count, int size) {
    if (count < 0) {
      throw new IllegalArgumentException(name + ": " + count + " (expected: >= 0)");
    }
    if (count > size) {
      throw new IllegalArgumentException(
          name + ": " + count + " (expected: <= " + size + ", the buffer's length)");
    }
  }

  /** Checks that a path ends with its NUL, so that the kernel stops inside the array. */
  static void checkPath(byte[] path) {
    if (path.length == 0 || path[path.length - 1] != 0) {
      throw new IllegalArgumentException(
          "path: "
              + path.length
              + " bytes without a closing NUL (expected: NUL-terminated, as"
              + " NativeLayer.cString makes it)");
    }
  }

  /** Checks {@code statx}'s path ({@link #checkPath}) and a buffer the kernel fills whole. */
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
   * {@code fcntl(fd, cmd, &flock)}, a set-lock command on the whole file, without waiting: 0, or
   * {@code -errno} ({@code -EAGAIN}/{@code -EACCES}: held elsewhere).
   */
  int setLock(int fd, int cmd, short type);

  /**
   * {@code fcntl(fd, cmd, &flock)}, a get-lock command for a whole-file write lock: the pid of a
   * classic lock in the way; 0 for none or an open file description lock (no pid); or {@code
   * -errno}.
   */
  long lockHolder(int fd, int cmd);

  /** {@code pread(fd, buf, count, offset)}: bytes read, or {@code -errno}. */
  long pread(int fd, byte[] buf, int count, long offset);

  /** {@code pwrite(fd, buf, count, offset)}: bytes written, or {@code -errno}. */
  long pwrite(int fd, byte[] buf, int count, long offset);

  /** {@code ftruncate(fd, length)}: 0 or {@code -errno}. */
  int ftruncate(int fd, long length);

  /** {@code fchmod(fd, mode)}: 0 or {@code -errno}; unlike {@code open}'s, not cut by the umask. */
  int fchmod(int fd, int mode);

  /** {@code geteuid()}: the effective user id of this process (it cannot fail). */
  int effectiveUid();

  /**
   * {@code statx(dirfd, path, flags, mask, buf)} through {@code syscall(2)}: 0, or {@code -errno}
   * ({@code -ENOSYS} before Linux 4.11 or where the ABI's number is unknown).
   */
  int statx(int dirfd, byte[] path, int flags, int mask, byte[] buf);
}
