package io.github.affinitykit.core.internal.natives;

import static io.github.affinitykit.core.internal.natives.FfmBuffers.allocate;
import static io.github.affinitykit.core.internal.natives.FfmBuffers.data;
import static io.github.affinitykit.core.internal.natives.FfmBuffers.path;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import io.github.affinitykit.core.internal.natives.LinuxAbi.Syscall;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Collections;
import java.util.Optional;

/**
 * The native layer through {@code java.lang.foreign} (JDK 22+, in the jar's {@code
 * META-INF/versions/22}): downcalls into the libc the JVM has loaded, each capturing {@code errno}
 * and adapted to one shape, {@code (state, long × 6) -> long}, so that {@link #call} makes them
 * all. Pointers are addresses of per-thread native buffers ({@link FfmBuffers}). See
 * ARCHITECTURE.md, "FFM details".
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
  private final MethodHandle kill;
  private final MethodHandle open;
  private final MethodHandle close;
  private final MethodHandle fcntl;
  private final MethodHandle pread;
  private final MethodHandle pwrite;
  private final MethodHandle ftruncate;
  private final MethodHandle fchmod;
  private final MethodHandle geteuid;
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
    kill = handle("kill", -1, FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
    open = handle("open", 2, FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
    close = handle("close", -1, FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    fcntl = handle("fcntl", 2, FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS));
    pread = handle("pread", -1, io);
    pwrite = handle("pwrite", -1, io);
    ftruncate = handle("ftruncate", -1, FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG));
    fchmod = handle("fchmod", -1, FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
    geteuid = handle("geteuid", -1, FunctionDescriptor.of(JAVA_INT));
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
    Optional<MemorySegment> found = linker.defaultLookup().find(name);
    MemorySegment symbol = found.orElseThrow(() -> new UnsatisfiedLinkError("libc has no " + name));
    Linker.Option errno = Linker.Option.captureCallState("errno");
    MethodHandle h =
        firstVariadic < 0
            ? linker.downcallHandle(symbol, fd, errno)
            : linker.downcallHandle(
                symbol, fd, errno, Linker.Option.firstVariadicArg(firstVariadic));
    MethodType fromLong = MethodType.methodType(MemorySegment.class, long.class);
    MethodHandle ofAddress =
        MethodHandles.lookup().findStatic(MemorySegment.class, "ofAddress", fromLong);
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

  /** Makes a downcall on this thread's buffers: its result, or {@code -errno} if negative. */
  @SuppressWarnings("checkstyle:illegalcatch") // invokeExact declares Throwable
  private long call(MethodHandle h, long a, long b, long c, long d, long e, long f) {
    MemorySegment state = scratch.get()[0];
    long r;
    try {
      r = (long) h.invokeExact(state, a, b, c, d, e, f);
    } catch (RuntimeException | Error x) {
      throw x;
    } catch (Throwable x) {
      throw new IllegalStateException(x); // a downcall declares no checked exception
    }
    return r < 0 ? -state.get(JAVA_INT, errnoOffset) : r;
  }

  @Override
  public LinuxAbi abi() {
    return abi;
  }

  @Override
  public int getAffinity(int tid, long[] mask) {
    MemorySegment[] s = scratch.get();
    MemorySegment buf = data(s, mask.length * 8L);
    long r = call(getAffinity, tid, mask.length * 8L, buf.address(), 0, 0, 0);
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
    return (int) call(setAffinity, tid, mask.length * 8L, buf.address(), 0, 0, 0);
  }

  @Override
  public int currentCpu() {
    return (int) call(getCpu, 0, 0, 0, 0, 0, 0);
  }

  @Override
  public int threadId() {
    int nr = abi.number(Syscall.GETTID);
    return nr < 0 ? -Errno.ENOSYS : (int) call(syscall0, nr, 0, 0, 0, 0, 0);
  }

  @Override
  public int kill(int pid, int signal) {
    return (int) call(kill, pid, signal, 0, 0, 0, 0);
  }

  @Override
  public int open(byte[] path, int flags, int mode) {
    FileCalls.checkPath(path);
    MemorySegment[] s = scratch.get();
    return (int) call(open, path(s, path), flags, mode, 0, 0, 0);
  }

  @Override
  public int close(int fd) {
    return (int) call(close, fd, 0, 0, 0, 0, 0);
  }

  @Override
  public int setLock(int fd, int cmd, short type) {
    MemorySegment[] s = scratch.get();
    return (int) call(fcntl, fd, cmd, flock(s, type).address(), 0, 0, 0);
  }

  @Override
  public long lockHolder(int fd, int cmd) {
    MemorySegment[] s = scratch.get();
    MemorySegment flock = flock(s, F_WRLCK);
    long r = call(fcntl, fd, cmd, flock.address(), 0, 0, 0);
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
    FileCalls.checkCount("count", count, buf.length);
    MemorySegment[] s = scratch.get();
    MemorySegment data = data(s, count);
    long r = call(pread, fd, data.address(), count, offset, 0, 0);
    if (r > 0) {
      MemorySegment.copy(data, JAVA_BYTE, 0, buf, 0, (int) r);
    }
    return r;
  }

  @Override
  public long pwrite(int fd, byte[] buf, int count, long offset) {
    FileCalls.checkCount("count", count, buf.length);
    MemorySegment[] s = scratch.get();
    MemorySegment data = data(s, count);
    MemorySegment.copy(buf, 0, data, JAVA_BYTE, 0, count);
    return call(pwrite, fd, data.address(), count, offset, 0, 0);
  }

  @Override
  public int ftruncate(int fd, long length) {
    return (int) call(ftruncate, fd, length, 0, 0, 0, 0);
  }

  @Override
  public int fchmod(int fd, int mode) {
    return (int) call(fchmod, fd, mode, 0, 0, 0, 0);
  }

  @Override
  public int effectiveUid() {
    return (int) call(geteuid, 0, 0, 0, 0, 0, 0);
  }

  @Override
  public int statx(int dirfd, byte[] path, int flags, int mask, byte[] buf) {
    FileCalls.checkStatx(path, buf); // before ENOSYS: a caller's bug on every kernel
    int nr = abi.number(Syscall.STATX);
    if (nr < 0) {
      return -Errno.ENOSYS;
    }
    MemorySegment[] s = scratch.get();
    MemorySegment data = data(s, STATX_BYTES);
    long r = call(syscall5, nr, dirfd, path(s, path), flags, mask, data.address());
    if (r == 0) {
      MemorySegment.copy(data, JAVA_BYTE, 0, buf, 0, STATX_BYTES);
    }
    return (int) r;
  }

  @Override
  public String toString() {
    return "java.lang.foreign (JDK " + Runtime.version().feature() + ")";
  }
}
