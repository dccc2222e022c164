package io.github.affinitykit.core.reservation;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import io.github.affinitykit.core.internal.Backends;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The libc calls of lock files, through JNA direct mapping (cheap enough for a reserve path of a
 * few microseconds): {@code open}, {@code fcntl} record locks, {@code ftruncate}, {@code pread},
 * {@code pwrite}, {@code close}. Linux on 64-bit ABIs only, whose {@code struct flock} is {@code
 * short type, short whence, off_t start, off_t len, pid_t pid} (32 bytes) and whose {@code
 * O_NOFOLLOW} is known per architecture; elsewhere {@link #load()} says why not.
 *
 * <p>Locks are open file description locks ({@code F_OFD_SETLK}, Linux 3.15+): they conflict with
 * the classic POSIX locks of Java's {@code FileChannel} (OpenHFT's) in every process, this one
 * included, and closing another descriptor of the file does not drop them. On an older kernel the
 * classic {@code F_SETLK} is used instead.
 *
 * <p>Thread safety: the natives are thread-safe; {@link #load()} is synchronised.
 */
final class LockCalls {
  static final int O_RDWR = 02;
  static final int O_CREAT = 0100;
  static final int O_EXCL = 0200;
  static final int O_NONBLOCK = 04000;
  static final int O_CLOEXEC = 02000000;
  static final int ENOENT = 2;
  static final int EACCES = 13;
  static final int EEXIST = 17;
  static final int EINVAL = 22;
  static final int EAGAIN = 11;
  static final short F_WRLCK = 1;
  static final short F_UNLCK = 2;
  private static final int F_GETLK = 5;
  private static final int F_SETLK = 6;
  private static final int F_OFD_GETLK = 36;
  private static final int F_OFD_SETLK = 37;
  private static final int FLOCK_BYTES = 32;

  private static Optional<String> unavailable; // guarded by LockCalls.class; null: not tried yet
  private static volatile int noFollow;
  private static volatile boolean classic;

  private LockCalls() {}

  /**
   * Registers the natives with libc on first use.
   *
   * @return empty when usable, else why not
   */
  static synchronized Optional<String> load() {
    if (unavailable == null) {
      unavailable = register();
    }
    return unavailable;
  }

  private static Optional<String> register() {
    String os = System.getProperty("os.name", "");
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    if (!os.toLowerCase(Locale.ROOT).startsWith("linux")) {
      return Optional.of("os.name " + os + " (expected: Linux)");
    }
    noFollow = noFollowFor(arch);
    if (noFollow == 0) {
      return Optional.of("os.arch " + arch + " (expected: a 64-bit ABI with known O_NOFOLLOW)");
    }
    try {
      if (Native.LONG_SIZE != 8) {
        return Optional.of("long size " + Native.LONG_SIZE + " (expected: 8, a 64-bit ABI)");
      }
      Native.register(LockCalls.class, NativeLibrary.getInstance("c"));
      return Optional.empty();
    } catch (LinkageError | RuntimeException e) {
      return Optional.of("JNA or libc unavailable: " + Backends.withCause(e));
    }
  }

  private static int noFollowFor(String arch) {
    switch (arch) {
      case "amd64":
      case "x86_64":
      case "riscv64":
      case "s390x":
      case "loongarch64":
        return 0400000;
      case "aarch64":
      case "ppc64le":
      case "ppc64":
        return 0100000;
      default:
        return 0;
    }
  }

  /** {@code open(path, O_RDWR|O_NOFOLLOW|O_CLOEXEC|O_NONBLOCK [|O_CREAT|O_EXCL], 0666)}. */
  static int openNoFollow(String path, boolean create) throws LastErrorException {
    int flags = O_RDWR | O_CLOEXEC | O_NONBLOCK | noFollow;
    return open(path, create ? flags | O_CREAT | O_EXCL : flags, 0666);
  }

  /**
   * Tries to lock (or, with {@link #F_UNLCK}, unlock) the whole file without waiting.
   *
   * @return 0, or the errno ({@link #EAGAIN}/{@link #EACCES}: held elsewhere)
   */
  static int setLock(int fd, short type, byte[] flock) {
    fill(flock, type);
    try {
      fcntl(fd, classic ? F_SETLK : F_OFD_SETLK, flock);
      return 0;
    } catch (LastErrorException e) {
      if (e.getErrorCode() == EINVAL && !classic) {
        classic = true; // kernel older than 3.15: no open file description locks
        return setLock(fd, type, flock);
      }
      return e.getErrorCode();
    }
  }

  /** The pid of a classic POSIX lock that keeps us from locking the file; -1 if none or unknown. */
  static long blockingPid(int fd, byte[] flock) {
    fill(flock, F_WRLCK);
    try {
      fcntl(fd, classic ? F_GETLK : F_OFD_GETLK, flock);
    } catch (LastErrorException e) {
      return -1;
    }
    ByteBuffer b = ByteBuffer.wrap(flock).order(ByteOrder.nativeOrder());
    return b.getShort(0) == F_UNLCK ? -1 : b.getInt(24);
  }

  private static void fill(byte[] flock, short type) {
    if (flock.length != FLOCK_BYTES) {
      throw new IllegalArgumentException("flock: " + flock.length + " bytes (expected: 32)");
    }
    Arrays.fill(flock, (byte) 0);
    ByteBuffer.wrap(flock).order(ByteOrder.nativeOrder()).putShort(0, type); // whence, start, len 0
  }

  static native int open(String path, int flags, int mode) throws LastErrorException;

  static native int close(int fd) throws LastErrorException;

  static native int fcntl(int fd, int cmd, byte[] flock) throws LastErrorException;

  static native int ftruncate(int fd, long length) throws LastErrorException;

  static native long pread(int fd, byte[] buf, long count, long offset) throws LastErrorException;

  static native long pwrite(int fd, byte[] buf, long count, long offset) throws LastErrorException;
}
