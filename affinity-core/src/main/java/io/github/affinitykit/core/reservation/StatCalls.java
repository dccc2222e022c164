package io.github.affinitykit.core.reservation;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * {@code statx(2)} through JNA direct mapping, for {@link FileStat}: a lock file's identity, type
 * and links in one system call, without the JDK's attribute map (a few microseconds per call on the
 * reserve path). {@code struct statx} has the same layout on every architecture, so nothing here
 * depends on the ABI. Only the type, mode, link count and inode are asked for: the device is always
 * filled, and not asking for the times keeps the kernel from switching the file to fine-grained
 * timestamps.
 *
 * <p>Loaded only where {@link LockCalls} loads (64-bit Linux with JNA); needs glibc 2.28+ and Linux
 * 4.11+, else {@link #usable()} is false and {@link FileStat} reads through the JDK.
 *
 * <p>Thread safety: {@link #usable()} is synchronised; {@link #statx} is thread-safe given a buffer
 * per caller.
 */
final class StatCalls {
  static final int AT_FDCWD = -100;
  static final int AT_SYMLINK_NOFOLLOW = 0x100;
  static final int AT_EMPTY_PATH = 0x1000;
  static final int ENOENT = 2;
  static final int BUFFER_BYTES = 256;
  static final int MASK = 0x1 | 0x2 | 0x4 | 0x100; // STATX_TYPE | MODE | NLINK | INO

  private static Boolean usable; // guarded by StatCalls.class; null: not tried yet

  private StatCalls() {}

  /** Registers {@code statx} on first use; whether it can be called. */
  static synchronized boolean usable() {
    if (usable == null) {
      usable = LockCalls.load().isEmpty() && register();
    }
    return usable;
  }

  private static boolean register() {
    try {
      Native.register(StatCalls.class, NativeLibrary.getInstance("c"));
      statx(AT_FDCWD, cString("/"), 0, MASK, new byte[BUFFER_BYTES]); // ENOSYS before Linux 4.11
      return true;
    } catch (LinkageError | RuntimeException e) {
      return false;
    }
  }

  /**
   * The fields of a filled {@code struct statx} buffer, {@code dev} encoded as glibc's {@code
   * makedev} (the JDK's {@code unix:dev}).
   */
  static FileStat read(byte[] buf) {
    ByteBuffer b = ByteBuffer.wrap(buf).order(ByteOrder.nativeOrder());
    int nlink = b.getInt(16);
    int mode = b.getShort(28) & 0xFFFF;
    long ino = b.getLong(32);
    long major = b.getInt(136) & 0xFFFF_FFFFL;
    long minor = b.getInt(140) & 0xFFFF_FFFFL;
    long dev =
        ((major & 0xFFFF_F000L) << 32)
            | ((major & 0xFFFL) << 8)
            | ((minor & 0xFFFF_FF00L) << 12)
            | (minor & 0xFFL);
    return new FileStat(dev, ino, mode, nlink);
  }

  /** {@code path} as {@code statx} takes it: JNA's string encoding, NUL-terminated. */
  static byte[] cString(String path) {
    return Native.toByteArray(path);
  }

  /**
   * {@code statx(2)}; {@code path} from {@link #cString(String)}, {@code buf} of {@link
   * #BUFFER_BYTES}.
   */
  static native int statx(int dirfd, byte[] path, int flags, int mask, byte[] buf)
      throws LastErrorException;
}
