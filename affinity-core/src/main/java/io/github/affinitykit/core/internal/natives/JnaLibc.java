package io.github.affinitykit.core.internal.natives;

import com.sun.jna.FunctionMapper;
import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.NativeLong;
import io.github.affinitykit.core.internal.natives.LinuxAbi.Syscall;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;

/**
 * The native layer through JNA direct mapping (JDK 17-21): natives {@code libc_<function>} bound by
 * name, {@code sys_<call>} bound to {@code syscall}. See ARCHITECTURE.md, "affinity-core: the
 * native layer".
 *
 * <p>Thread safety: the natives are thread-safe; {@link #load} is synchronised.
 */
final class JnaLibc implements ThreadCalls, FileCalls {
  private static final int FLOCK_BYTES = 32;
  private static boolean registered; // guarded by JnaLibc.class

  private final LinuxAbi abi;

  private JnaLibc(LinuxAbi abi) {
    this.abi = abi;
  }

  /** Registers the natives on first use; {@link LinkageError} if JNA or libc cannot. */
  static synchronized JnaLibc load(LinuxAbi abi) {
    if (!registered) {
      FunctionMapper mapper =
          (lib, m) -> m.getName().startsWith("sys_") ? "syscall" : m.getName().substring(5);
      Native.register(
          JnaLibc.class,
          NativeLibrary.getInstance("c", Map.of(Library.OPTION_FUNCTION_MAPPER, mapper)));
      registered = true;
    }
    return new JnaLibc(abi);
  }

  /** A native call that throws {@link LastErrorException}. */
  private interface Call {
    long run() throws LastErrorException;
  }

  /** Runs {@code c}: its result, or {@code -errno} when it fails. */
  private static long call(Call c) {
    try {
      return c.run();
    } catch (LastErrorException e) {
      return -e.getErrorCode();
    }
  }

  @Override
  public LinuxAbi abi() {
    return abi;
  }

  @Override
  public int getAffinity(int tid, long[] mask) {
    return (int) call(() -> libc_sched_getaffinity(tid, new NativeLong(mask.length * 8L), mask));
  }

  @Override
  public int setAffinity(int tid, long[] mask) {
    return (int) call(() -> libc_sched_setaffinity(tid, new NativeLong(mask.length * 8L), mask));
  }

  @Override
  public int currentCpu() {
    return (int) call(() -> libc_sched_getcpu());
  }

  @Override
  public int threadId() {
    int nr = abi.number(Syscall.GETTID);
    return (int) call(() -> nr < 0 ? -Errno.ENOSYS : (int) sys_gettid(nr));
  }

  @Override
  public int kill(int pid, int signal) {
    return (int) call(() -> libc_kill(pid, signal));
  }

  @Override
  public int open(byte[] path, int flags, int mode) {
    FileCalls.checkPath(path);
    return (int) call(() -> libc_open(path, flags, mode));
  }

  @Override
  public int close(int fd) {
    return (int) call(() -> libc_close(fd));
  }

  @Override
  public int setLock(int fd, int cmd, short type) {
    return (int) call(() -> libc_fcntl(fd, cmd, flock(type)));
  }

  @Override
  public long lockHolder(int fd, int cmd) {
    byte[] flock = flock(F_WRLCK);
    long r = call(() -> libc_fcntl(fd, cmd, flock));
    if (r < 0) {
      return r;
    }
    ByteBuffer b = ByteBuffer.wrap(flock).order(ByteOrder.nativeOrder());
    return b.getShort(0) == F_UNLCK ? 0 : Math.max(0, b.getInt(24));
  }

  /** A whole-file {@code struct flock} of {@code type}: whence, start and len 0. */
  private static byte[] flock(short type) {
    byte[] flock = new byte[FLOCK_BYTES];
    ByteBuffer.wrap(flock).order(ByteOrder.nativeOrder()).putShort(0, type);
    return flock;
  }

  @Override
  public long pread(int fd, byte[] buf, int count, long offset) {
    FileCalls.checkCount("count", count, buf.length);
    return call(() -> libc_pread(fd, buf, count, offset));
  }

  @Override
  public long pwrite(int fd, byte[] buf, int count, long offset) {
    FileCalls.checkCount("count", count, buf.length);
    return call(() -> libc_pwrite(fd, buf, count, offset));
  }

  @Override
  public int ftruncate(int fd, long length) {
    return (int) call(() -> libc_ftruncate(fd, length));
  }

  @Override
  public int fchmod(int fd, int mode) {
    return (int) call(() -> libc_fchmod(fd, mode));
  }

  @Override
  public int effectiveUid() {
    return libc_geteuid();
  }

  @Override
  public int statx(int dirfd, byte[] path, int flags, int mask, byte[] buf) {
    FileCalls.checkStatx(path, buf);
    int nr = abi.number(Syscall.STATX);
    return (int)
        call(() -> nr < 0 ? -Errno.ENOSYS : (int) sys_statx(nr, dirfd, path, flags, mask, buf));
  }

  @Override
  public String toString() {
    return "JNA " + Native.VERSION;
  }

  private static native int libc_sched_getaffinity(int pid, NativeLong size, long[] mask)
      throws LastErrorException;

  private static native int libc_sched_setaffinity(int pid, NativeLong size, long[] mask)
      throws LastErrorException;

  private static native int libc_sched_getcpu() throws LastErrorException;

  private static native int libc_kill(int pid, int signal) throws LastErrorException;

  private static native int libc_open(byte[] path, int flags, int mode) throws LastErrorException;

  private static native int libc_close(int fd) throws LastErrorException;

  private static native int libc_fcntl(int fd, int cmd, byte[] flock) throws LastErrorException;

  private static native long libc_pread(int fd, byte[] buf, long count, long offset)
      throws LastErrorException;

  private static native long libc_pwrite(int fd, byte[] buf, long count, long offset)
      throws LastErrorException;

  private static native int libc_ftruncate(int fd, long length) throws LastErrorException;

  private static native int libc_fchmod(int fd, int mode) throws LastErrorException;

  private static native int libc_geteuid();

  private static native long sys_gettid(long nr) throws LastErrorException;

  private static native long sys_statx(
      long nr, long dirfd, byte[] path, long flags, long mask, byte[] buf)
      throws LastErrorException;
}
