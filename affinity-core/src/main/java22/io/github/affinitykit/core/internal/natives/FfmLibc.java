package io.github.affinitykit.core.internal.natives;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import io.github.affinitykit.core.internal.natives.LinuxAbi.Syscall;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Collections;

/**
 * The native layer through {@code java.lang.foreign} (JDK 22+, in the jar's {@code
 * META-INF/versions/22}): downcalls into the libc the JVM already has loaded, so nothing is
 * extracted or loaded from a file and a {@code noexec} temporary directory does not matter. Every
 * downcall captures {@code errno} into a per-thread buffer and is adapted to one shape, {@code
 * (state, long × 6) -> long} (ints narrowed, pointers passed as addresses of per-thread native
 * buffers that grow as needed and are freed with the thread), so that one method ({@link #call})
 * makes them all. {@code gettid} and {@code statx} go through the variadic {@code syscall(2)}.
 * {@link NativeLayer} creates it by reflection ({@link #load}); JDK 17-21 never see this class.
 *
 * <p>Thread safety: safe for concurrent use by any number of threads.
 */
final class FfmLibc implements ThreadCalls, FileCalls {
  private static final int ARGS = 6;
  private static final int FLOCK_BYTES = 32;

  private final LinuxAbi abi;
  private final long errnoOffset;
  private final ThreadLocal<MemorySegment[]> scratch; // {errno state, path, data} per thread
  private final MethodHandle getAffinity;
  private final MethodHandle setAffinity;
  private final MethodHandle getCpu;
  private final MethodHandle open;
  private final MethodHandle close;
  private final MethodHandle fcntl;
  private final MethodHandle pread;
  private final MethodHandle pwrite;
  private final MethodHandle ftruncate;
  private final MethodHandle syscall0;
  private final MethodHandle syscall5;

  private FfmLibc(LinuxAbi abi) throws ReflectiveOperationException {
    this.abi = abi;
    StructLayout state = Linker.Option.captureStateLayout();
    errnoOffset = state.byteOffset(MemoryLayout.PathElement.groupElement("errno"));
    long stateBytes = state.byteSize();
    scratch = ThreadLocal.withInitial(() -> new MemorySegment[] {allocate(stateBytes), null, null});
    FunctionDescriptor mask = FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS);
    FunctionDescriptor io =
        FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG);
    getAffinity = handle("sched_getaffinity", -1, mask);
    setAffinity = handle("sched_setaffinity", -1, mask);
    getCpu = handle("sched_getcpu", -1, FunctionDescriptor.of(JAVA_INT));
    open = handle("open", 2, FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
    close = handle("close", -1, FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    fcntl = handle("fcntl", 2, FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS));
    pread = handle("pread", -1, io);
    pwrite = handle("pwrite", -1, io);
    ftruncate = handle("ftruncate", -1, FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG));
    syscall0 = handle("syscall", 1, FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
    syscall5 =
        handle(
            "syscall",
            1,
            FunctionDescriptor.of(
                JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS));
  }

  /**
   * Links every downcall now; called by {@link NativeLayer} through reflection.
   *
   * @throws IllegalCallerException if native access is denied to this module
   */
  static FfmLibc load(LinuxAbi abi) throws ReflectiveOperationException {
    if (ADDRESS.byteSize() != 8) {
      throw new UnsupportedOperationException(
          "address size: " + ADDRESS.byteSize() + " bytes (expected: 8, a 64-bit JVM)");
    }
    return new FfmLibc(abi);
  }

  /**
   * The downcall of libc's {@code name} ({@code firstVariadic} &ge; 0 for a variadic function),
   * capturing {@code errno}, adapted to {@code (MemorySegment state, long × 6) -> long}.
   */
  @SuppressWarnings("restricted") // downcalls: the reason this class exists
  private static MethodHandle handle(String name, int firstVariadic, FunctionDescriptor fd)
      throws ReflectiveOperationException {
    Linker linker = Linker.nativeLinker();
    MemorySegment symbol =
        linker
            .defaultLookup()
            .find(name)
            .orElseThrow(() -> new UnsatisfiedLinkError("libc has no " + name));
    Linker.Option errno = Linker.Option.captureCallState("errno");
    MethodHandle h =
        firstVariadic < 0
            ? linker.downcallHandle(symbol, fd, errno)
            : linker.downcallHandle(
                symbol, fd, errno, Linker.Option.firstVariadicArg(firstVariadic));
    MethodHandle ofAddress =
        MethodHandles.lookup()
            .findStatic(
                MemorySegment.class,
                "ofAddress",
                MethodType.methodType(MemorySegment.class, long.class));
    int n = h.type().parameterCount();
    for (int i = 1; i < n; i++) {
      if (h.type().parameterType(i) == MemorySegment.class) {
        h = MethodHandles.filterArguments(h, i, ofAddress);
      }
    }
    MethodType longs =
        MethodType.methodType(long.class, MemorySegment.class)
            .appendParameterTypes(Collections.nCopies(n - 1, long.class));
    h = MethodHandles.explicitCastArguments(h, longs);
    return MethodHandles.dropArguments(h, n, Collections.nCopies(ARGS + 1 - n, long.class));
  }

  private static MemorySegment allocate(long bytes) {
    return Arena.ofAuto().allocate(bytes, 8);
  }

  /** Makes a downcall: its result, or {@code -errno} when it returned a negative value. */
  @SuppressWarnings("checkstyle:illegalcatch") // invokeExact declares Throwable
  private long call(
      MemorySegment[] s, MethodHandle h, long a, long b, long c, long d, long e, long f) {
    long r;
    try {
      r = (long) h.invokeExact(s[0], a, b, c, d, e, f);
    } catch (RuntimeException | Error x) {
      throw x;
    } catch (Throwable x) {
      throw new IllegalStateException(x); // a downcall declares no checked exception
    }
    return r < 0 ? -s[0].get(JAVA_INT, errnoOffset) : r;
  }

  @Override
  public LinuxAbi abi() {
    return abi;
  }

  @Override
  public int getAffinity(int tid, long[] mask) {
    MemorySegment[] s = scratch.get();
    MemorySegment buf = data(s, mask.length * 8L);
    long r = call(s, getAffinity, tid, mask.length * 8L, buf.address(), 0, 0, 0);
    if (r == 0) {
      MemorySegment.copy(buf, JAVA_LONG, 0, mask, 0, mask.length);
    }
    return (int) r;
  }

  @Override
  public int setAffinity(int tid, long[] mask) {
    MemorySegment[] s = scratch.get();
    MemorySegment buf = data(s, mask.length * 8L);
    MemorySegment.copy(mask, 0, buf, JAVA_LONG, 0, mask.length);
    return (int) call(s, setAffinity, tid, mask.length * 8L, buf.address(), 0, 0, 0);
  }

  @Override
  public int currentCpu() {
    return (int) call(scratch.get(), getCpu, 0, 0, 0, 0, 0, 0);
  }

  @Override
  public int threadId() {
    int nr = abi.number(Syscall.GETTID);
    return nr < 0 ? -Errno.ENOSYS : (int) call(scratch.get(), syscall0, nr, 0, 0, 0, 0, 0);
  }

  @Override
  public int open(byte[] path, int flags, int mode) {
    MemorySegment[] s = scratch.get();
    return (int) call(s, open, path(s, path), flags, mode, 0, 0, 0);
  }

  @Override
  public int close(int fd) {
    return (int) call(scratch.get(), close, fd, 0, 0, 0, 0, 0);
  }

  @Override
  public int setLock(int fd, int cmd, short type) {
    MemorySegment[] s = scratch.get();
    return (int) call(s, fcntl, fd, cmd, flock(s, type).address(), 0, 0, 0);
  }

  @Override
  public long lockHolder(int fd, int cmd) {
    MemorySegment[] s = scratch.get();
    MemorySegment flock = flock(s, F_WRLCK);
    long r = call(s, fcntl, fd, cmd, flock.address(), 0, 0, 0);
    if (r < 0) {
      return r;
    }
    return flock.get(JAVA_SHORT, 0) == F_UNLCK ? 0 : Math.max(0, flock.get(JAVA_INT, 24));
  }

  /** A whole-file {@code struct flock} of {@code type} in the data buffer. */
  private static MemorySegment flock(MemorySegment[] s, short type) {
    MemorySegment flock = data(s, FLOCK_BYTES).asSlice(0, FLOCK_BYTES).fill((byte) 0);
    flock.set(JAVA_SHORT, 0, type);
    return flock;
  }

  @Override
  public long pread(int fd, byte[] buf, int count, long offset) {
    MemorySegment[] s = scratch.get();
    MemorySegment data = data(s, count);
    long r = call(s, pread, fd, data.address(), count, offset, 0, 0);
    if (r > 0) {
      MemorySegment.copy(data, JAVA_BYTE, 0, buf, 0, (int) r);
    }
    return r;
  }

  @Override
  public long pwrite(int fd, byte[] buf, int count, long offset) {
    MemorySegment[] s = scratch.get();
    MemorySegment data = data(s, count);
    MemorySegment.copy(buf, 0, data, JAVA_BYTE, 0, count);
    return call(s, pwrite, fd, data.address(), count, offset, 0, 0);
  }

  @Override
  public int ftruncate(int fd, long length) {
    return (int) call(scratch.get(), ftruncate, fd, length, 0, 0, 0, 0);
  }

  @Override
  public int statx(int dirfd, byte[] path, int flags, int mask, byte[] buf) {
    int nr = abi.number(Syscall.STATX);
    if (nr < 0) {
      return -Errno.ENOSYS;
    }
    MemorySegment[] s = scratch.get();
    MemorySegment data = data(s, STATX_BYTES);
    long r = call(s, syscall5, nr, dirfd, path(s, path), flags, mask, data.address());
    if (r == 0) {
      MemorySegment.copy(data, JAVA_BYTE, 0, buf, 0, STATX_BYTES);
    }
    return (int) r;
  }

  /** The address of the calling thread's path buffer, holding {@code path}. */
  private static long path(MemorySegment[] s, byte[] path) {
    if (s[1] == null || s[1].byteSize() < path.length) {
      s[1] = allocate(Math.max(256, path.length));
    }
    MemorySegment.copy(path, 0, s[1], JAVA_BYTE, 0, path.length);
    return s[1].address();
  }

  /** The calling thread's data buffer, at least {@code bytes} long. */
  private static MemorySegment data(MemorySegment[] s, long bytes) {
    if (s[2] == null || s[2].byteSize() < bytes) {
      s[2] = allocate(Math.max(256, bytes));
    }
    return s[2];
  }

  @Override
  public String toString() {
    return "java.lang.foreign (JDK " + Runtime.version().feature() + ")";
  }
}
