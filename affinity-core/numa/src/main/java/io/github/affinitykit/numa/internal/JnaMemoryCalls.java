package io.github.affinitykit.numa.internal;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import java.nio.ByteBuffer;

/**
 * The memory calls through JNA direct mapping (JDK 17-21, or where core's layer is JNA): natives
 * bound by their libc names, {@code syscall} once per shape of arguments; a failed call's {@code
 * errno} is the one JNA kept for this thread ({@link Native#getLastError()}).
 *
 * <p>Thread safety: the natives are thread-safe; {@link #load} is synchronised.
 */
final class JnaMemoryCalls implements MemoryCalls {
  private static final int PROT_READ_WRITE = 3;
  private static final int MAP_PRIVATE_ANONYMOUS = 0x22;
  private static boolean registered; // guarded by JnaMemoryCalls.class

  private final int[] nr;

  private JnaMemoryCalls(int[] nr) {
    this.nr = nr.clone();
  }

  /** Registers the natives on first use; {@link LinkageError} if JNA or libc cannot. */
  static synchronized JnaMemoryCalls load(int[] numbers) {
    if (!registered) {
      Native.register(JnaMemoryCalls.class, NativeLibrary.getInstance("c"));
      registered = true;
    }
    return new JnaMemoryCalls(numbers);
  }

  /** A call's result {@code r}, or {@code -errno} if it failed ({@code r} negative). */
  private static long orErrno(long r) {
    return r < 0 ? -Native.getLastError() : r;
  }

  /** An empty mask is passed as {@code NULL}. */
  private static long[] orNull(long[] mask) {
    return mask.length == 0 ? null : mask;
  }

  @Override
  public int setMempolicy(int mode, long[] nodemask, long maxnode) {
    MemoryCalls.checkMask(nodemask, maxnode);
    return (int) orErrno(syscall(nr[SET_MEMPOLICY], mode, orNull(nodemask), maxnode));
  }

  @Override
  public int getMempolicy(int[] mode, long[] nodemask, long maxnode, long addr, int flags) {
    MemoryCalls.checkRead(mode, nodemask, maxnode);
    long[] mask = orNull(nodemask);
    return (int) orErrno(syscall(nr[GET_MEMPOLICY], mode, mask, maxnode, addr, flags));
  }

  @Override
  public int mbind(long addr, long len, int mode, long[] nodemask, long maxnode, int flags) {
    MemoryCalls.checkMask(nodemask, maxnode);
    long[] mask = orNull(nodemask);
    return (int) orErrno(syscall(nr[MBIND], addr, len, mode, mask, maxnode, flags));
  }

  @Override
  public long movePages(int pid, long[] pages, int[] nodes, int[] status, int flags) {
    MemoryCalls.checkPages(pages, nodes, status);
    return orErrno(syscall(nr[MOVE_PAGES], pid, pages.length, pages, nodes, status, flags));
  }

  @Override
  public long map(long bytes) {
    return orErrno(mmap(0, bytes, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0));
  }

  @Override
  public int unmap(long addr, long bytes) {
    return (int) orErrno(munmap(addr, bytes));
  }

  @Override
  public int pageSize() {
    return getpagesize();
  }

  @Override
  public ByteBuffer buffer(long addr, int bytes) {
    return new Pointer(addr).getByteBuffer(0, bytes);
  }

  @Override
  public long address(ByteBuffer buffer) {
    if (!buffer.isDirect()) {
      throw new IllegalArgumentException("buffer: " + buffer + " (expected: a direct buffer)");
    }
    return Pointer.nativeValue(Native.getDirectBufferPointer(buffer));
  }

  @Override
  public String toString() {
    return "JNA " + Native.VERSION;
  }

  /** {@code set_mempolicy}. */
  private static native long syscall(long nr, long mode, long[] mask, long maxnode);

  /** {@code get_mempolicy}. */
  private static native long syscall(
      long nr, int[] mode, long[] mask, long maxnode, long addr, long flags);

  /** {@code mbind}. */
  private static native long syscall(
      long nr, long addr, long len, long mode, long[] mask, long maxnode, long flags);

  /** {@code move_pages}. */
  private static native long syscall(
      long nr, long pid, long count, long[] pages, int[] nodes, int[] status, long flags);

  private static native long mmap(long addr, long len, int prot, int flags, int fd, long offset);

  private static native int munmap(long addr, long len);

  private static native int getpagesize();
}
