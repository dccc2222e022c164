package io.github.affinitykit.numa.internal;

import com.sun.jna.FunctionMapper;
import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import java.nio.ByteBuffer;
import java.util.Map;

/**
 * The memory calls through JNA direct mapping (JDK 17-21, or where core's layer is JNA): natives
 * {@code libc_<function>} bound by name, {@code sys_<call>} bound to {@code syscall}.
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
      FunctionMapper mapper =
          (lib, m) -> m.getName().startsWith("sys_") ? "syscall" : m.getName().substring(5);
      Native.register(
          JnaMemoryCalls.class,
          NativeLibrary.getInstance("c", Map.of(Library.OPTION_FUNCTION_MAPPER, mapper)));
      registered = true;
    }
    return new JnaMemoryCalls(numbers);
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

  /** An empty mask is passed as {@code NULL}. */
  private static long[] orNull(long[] mask) {
    return mask.length == 0 ? null : mask;
  }

  @Override
  public int setMempolicy(int mode, long[] nodemask, long maxnode) {
    MemoryCalls.checkMask(nodemask, maxnode);
    return (int) call(() -> sys_set_mempolicy(nr[SET_MEMPOLICY], mode, orNull(nodemask), maxnode));
  }

  @Override
  public int getMempolicy(int[] mode, long[] nodemask, long maxnode, long addr, int flags) {
    MemoryCalls.checkRead(mode, nodemask, maxnode);
    long[] mask = orNull(nodemask);
    return (int) call(() -> sys_get_mempolicy(nr[GET_MEMPOLICY], mode, mask, maxnode, addr, flags));
  }

  @Override
  public int mbind(long addr, long len, int mode, long[] nodemask, long maxnode, int flags) {
    MemoryCalls.checkMask(nodemask, maxnode);
    long[] mask = orNull(nodemask);
    return (int) call(() -> sys_mbind(nr[MBIND], addr, len, mode, mask, maxnode, flags));
  }

  @Override
  public long movePages(int pid, long[] pages, int[] nodes, int[] status, int flags) {
    MemoryCalls.checkPages(pages, nodes, status);
    return call(
        () -> sys_move_pages(nr[MOVE_PAGES], pid, pages.length, pages, nodes, status, flags));
  }

  @Override
  public long map(long bytes) {
    return call(() -> libc_mmap(0, bytes, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0));
  }

  @Override
  public int unmap(long addr, long bytes) {
    return (int) call(() -> libc_munmap(addr, bytes));
  }

  @Override
  public int pageSize() {
    return libc_getpagesize();
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

  private static native long sys_set_mempolicy(long nr, long mode, long[] mask, long maxnode)
      throws LastErrorException;

  private static native long sys_get_mempolicy(
      long nr, int[] mode, long[] mask, long maxnode, long addr, long flags)
      throws LastErrorException;

  private static native long sys_mbind(
      long nr, long addr, long len, long mode, long[] mask, long maxnode, long flags)
      throws LastErrorException;

  private static native long sys_move_pages(
      long nr, long pid, long count, long[] pages, int[] nodes, int[] status, long flags)
      throws LastErrorException;

  private static native long libc_mmap(
      long addr, long len, int prot, int flags, int fd, long offset) throws LastErrorException;

  private static native int libc_munmap(long addr, long len) throws LastErrorException;

  private static native int libc_getpagesize();
}
