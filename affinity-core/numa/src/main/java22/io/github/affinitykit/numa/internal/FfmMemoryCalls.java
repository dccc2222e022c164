package io.github.affinitykit.numa.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;

/**
 * The memory calls through {@code java.lang.foreign} (JDK 22+, in the jar's {@code
 * META-INF/versions/22}): downcalls into the libc the JVM has loaded, each capturing {@code errno};
 * {@code syscall} is linked once, variadic, with six {@code long} arguments (unused ones are 0).
 * Arrays are copied into a confined arena per call: these calls are made when a thread is bound or
 * a buffer allocated or queried, never on a hot path.
 *
 * <p>Thread safety: safe for concurrent use by any number of threads.
 */
final class FfmMemoryCalls implements MemoryCalls {
  private static final int PROT_READ_WRITE = 3;
  private static final int MAP_PRIVATE_ANONYMOUS = 0x22;

  private final int[] nr;
  private final StructLayout state = Linker.Option.captureStateLayout();
  private final long errnoOffset = state.byteOffset(MemoryLayout.PathElement.groupElement("errno"));
  private final MethodHandle syscall;
  private final MethodHandle mmap;
  private final MethodHandle munmap;
  private final MethodHandle pageSize;

  private FfmMemoryCalls(int[] nr) {
    this.nr = nr.clone();
    FunctionDescriptor longs =
        FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG);
    syscall = link("syscall", 1, longs.appendArgumentLayouts(JAVA_LONG, JAVA_LONG));
    mmap =
        link(
            "mmap",
            -1,
            FunctionDescriptor.of(
                JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
    munmap = link("munmap", -1, FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG));
    pageSize = link("getpagesize", -1, FunctionDescriptor.of(JAVA_INT));
  }

  /**
   * Links every downcall now; called by {@link MemoryLayer} through reflection.
   *
   * @throws IllegalCallerException if native access is denied to this module
   */
  static FfmMemoryCalls load(int[] numbers) {
    if (ADDRESS.byteSize() != 8) {
      throw new UnsupportedOperationException(
          "address size: " + ADDRESS.byteSize() + " bytes (expected: 8, a 64-bit JVM)");
    }
    return new FfmMemoryCalls(numbers);
  }

  /** The downcall of libc's {@code name} ({@code firstVariadic} &ge; 0: variadic), with errno. */
  @SuppressWarnings("restricted") // downcalls: the reason this class exists
  private static MethodHandle link(String name, int firstVariadic, FunctionDescriptor fd) {
    Linker linker = Linker.nativeLinker();
    MemorySegment symbol =
        linker
            .defaultLookup()
            .find(name)
            .orElseThrow(() -> new UnsatisfiedLinkError("libc has no " + name));
    Linker.Option errno = Linker.Option.captureCallState("errno");
    return firstVariadic < 0
        ? linker.downcallHandle(symbol, fd, errno)
        : linker.downcallHandle(symbol, fd, errno, Linker.Option.firstVariadicArg(firstVariadic));
  }

  /** A downcall given its errno state. */
  private interface Downcall {
    long run(MemorySegment errnoState) throws Throwable;
  }

  /** Makes {@code d} in {@code arena}: its result, or {@code -errno} if negative. */
  @SuppressWarnings("checkstyle:illegalcatch") // invokeExact declares Throwable
  private long call(Arena arena, Downcall d) {
    MemorySegment s = arena.allocate(state);
    long r;
    try {
      r = d.run(s);
    } catch (RuntimeException | Error x) {
      throw x;
    } catch (Throwable x) {
      throw new IllegalStateException(x); // a downcall declares no checked exception
    }
    return r < 0 ? -s.get(JAVA_INT, errnoOffset) : r;
  }

  /** {@code syscall(nr[call], a, ..., f)}: its result, or {@code -errno}. */
  private long syscall(Arena arena, int call, long a, long b, long c, long d, long e, long f) {
    long n = nr[call];
    return call(arena, s -> (long) syscall.invokeExact(s, n, a, b, c, d, e, f));
  }

  /** {@code longs} copied into {@code arena}: its address, or 0 ({@code NULL}) if empty. */
  private static long copy(Arena arena, long[] longs) {
    return longs.length == 0 ? 0 : arena.allocateFrom(JAVA_LONG, longs).address();
  }

  @Override
  public int setMempolicy(int mode, long[] nodemask, long maxnode) {
    MemoryCalls.checkMask(nodemask, maxnode);
    try (Arena arena = Arena.ofConfined()) {
      return (int) syscall(arena, SET_MEMPOLICY, mode, copy(arena, nodemask), maxnode, 0, 0, 0);
    }
  }

  @Override
  public int getMempolicy(int[] mode, long[] nodemask, long maxnode, long addr, int flags) {
    MemoryCalls.checkRead(mode, nodemask, maxnode);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment m = arena.allocate(JAVA_INT);
      MemorySegment mask = arena.allocate(JAVA_LONG, Math.max(1, nodemask.length));
      long at = nodemask.length == 0 ? 0 : mask.address();
      long r = syscall(arena, GET_MEMPOLICY, m.address(), at, maxnode, addr, flags, 0);
      if (r == 0) {
        mode[0] = m.get(JAVA_INT, 0);
        MemorySegment.copy(mask, JAVA_LONG, 0, nodemask, 0, nodemask.length);
      }
      return (int) r;
    }
  }

  @Override
  public int mbind(long addr, long len, int mode, long[] nodemask, long maxnode, int flags) {
    MemoryCalls.checkMask(nodemask, maxnode);
    try (Arena arena = Arena.ofConfined()) {
      long mask = copy(arena, nodemask);
      return (int) syscall(arena, MBIND, addr, len, mode, mask, maxnode, flags);
    }
  }

  @Override
  public long movePages(int pid, long[] pages, int[] nodes, int[] status, int flags) {
    MemoryCalls.checkPages(pages, nodes, status);
    int n = pages.length;
    try (Arena arena = Arena.ofConfined()) {
      long at = copy(arena, pages);
      long to = nodes == null ? 0 : arena.allocateFrom(JAVA_INT, nodes).address();
      MemorySegment out = arena.allocate(JAVA_INT, Math.max(1, n));
      long r = syscall(arena, MOVE_PAGES, pid, n, at, to, out.address(), flags);
      if (r >= 0) {
        MemorySegment.copy(out, JAVA_INT, 0, status, 0, n);
      }
      return r;
    }
  }

  @Override
  public long map(long bytes) {
    try (Arena arena = Arena.ofConfined()) {
      return call(
          arena,
          s ->
              (long)
                  mmap.invokeExact(s, 0L, bytes, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0L));
    }
  }

  @Override
  public int unmap(long addr, long bytes) {
    try (Arena arena = Arena.ofConfined()) {
      return (int) call(arena, s -> (int) munmap.invokeExact(s, addr, bytes));
    }
  }

  @Override
  public int pageSize() {
    try (Arena arena = Arena.ofConfined()) {
      return (int) call(arena, s -> (int) pageSize.invokeExact(s));
    }
  }

  @Override
  @SuppressWarnings("restricted") // memory this caller mapped and owns
  public ByteBuffer buffer(long addr, int bytes) {
    return MemorySegment.ofAddress(addr).reinterpret(bytes).asByteBuffer();
  }

  @Override
  public long address(ByteBuffer buffer) {
    if (!buffer.isDirect()) {
      throw new IllegalArgumentException("buffer: " + buffer + " (expected: a direct buffer)");
    }
    return MemorySegment.ofBuffer(buffer.duplicate().clear()).address();
  }

  @Override
  public String toString() {
    return "java.lang.foreign (JDK " + Runtime.version().feature() + ")";
  }
}
