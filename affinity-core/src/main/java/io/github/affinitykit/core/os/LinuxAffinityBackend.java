package io.github.affinitykit.core.os;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.internal.Backends;
import io.github.affinitykit.core.internal.Errno;
import io.github.affinitykit.core.observe.TaskReader;
import java.util.BitSet;

/**
 * Linux affinity through JNA direct-mapped calls into libc ({@link AffinityCalls}): {@code
 * sched_getaffinity}/{@code sched_setaffinity} by thread id, {@code sched_getcpu}, {@code gettid}.
 * Masks are sized for the host, not for glibc's 1024-CPU {@code cpu_set_t}: the buffer starts at
 * 1024 bits and doubles while the kernel answers {@code EINVAL} (its mask is larger), up to {@link
 * CpuSet#MAX_CPUS} bits.
 *
 * <p>OpenHFT's {@code Affinity} is not used: it is limited to 1024 CPUs, works on the calling
 * thread only, loses the error text, and its class initialisation probes the platform.
 *
 * <p>Thread safety: safe for concurrent use; the learnt mask size is a benign racy cache.
 */
public final class LinuxAffinityBackend implements AffinityBackend {
  private static final int MIN_MASK_BYTES = 1024 / 8;
  private static final int MAX_MASK_BYTES = CpuSet.MAX_CPUS / 8;

  private final boolean hasGettid;
  private volatile int maskBytes = MIN_MASK_BYTES;

  private LinuxAffinityBackend(boolean hasGettid) {
    this.hasGettid = hasGettid;
  }

  /**
   * Loads libc and checks that {@code sched_getaffinity} answers for the calling thread.
   *
   * @throws LinkageError if JNA or libc cannot be loaded
   * @throws AffinityException if the kernel refuses {@code sched_getaffinity}
   */
  public static LinuxAffinityBackend load() {
    LinuxAffinityBackend backend = new LinuxAffinityBackend(AffinityCalls.load());
    backend.getAffinity(0);
    return backend;
  }

  @Override
  public boolean isSupported() {
    return true;
  }

  @Override
  public String reason() {
    return "Linux: JNA "
        + Native.VERSION
        + " calls libc sched_setaffinity/sched_getaffinity by TID ("
        + maskBytes * 8
        + "-bit masks), sched_getcpu, "
        + (hasGettid ? "gettid" : "/proc/thread-self");
  }

  @Override
  public int currentThreadId() {
    if (hasGettid) {
      return AffinityCalls.Gettid.gettid();
    }
    return TaskReader.live()
        .currentThreadId()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "/proc/thread-self: unreadable (expected: a link <pid>/task/<tid>)"));
  }

  @Override
  public int currentCpu() {
    try {
      int cpu = AffinityCalls.sched_getcpu();
      return cpu >= 0 ? cpu : -1;
    } catch (LastErrorException e) {
      return -1;
    }
  }

  @Override
  public CpuSet getAffinity(int tid) {
    Backends.checkTid(tid);
    int bytes = maskBytes;
    while (true) {
      byte[] mask = new byte[bytes];
      try {
        AffinityCalls.sched_getaffinity(tid, new NativeLong(bytes), mask);
        maskBytes = Math.max(maskBytes, bytes);
        return read(mask);
      } catch (LastErrorException e) {
        if (e.getErrorCode() != Errno.EINVAL || bytes >= MAX_MASK_BYTES) {
          throw new AffinityException("sched_getaffinity", tid, CpuSet.empty(), e.getErrorCode());
        }
        bytes *= 2; // the kernel's mask is wider than ours
      }
    }
  }

  @Override
  public void setAffinity(int tid, CpuSet cpus) {
    Backends.checkTid(tid);
    Backends.checkCpus(cpus);
    int words = cpus.last() / (NativeLong.SIZE * 8) + 1;
    byte[] mask = new byte[Math.max(maskBytes, words * NativeLong.SIZE)];
    for (int cpu = cpus.first(); cpu >= 0; cpu = cpus.next(cpu + 1)) {
      mask[AffinityCalls.byteOf(cpu)] |= (byte) (1 << (cpu & 7));
    }
    try {
      AffinityCalls.sched_setaffinity(tid, new NativeLong(mask.length), mask);
    } catch (LastErrorException e) {
      throw new AffinityException("sched_setaffinity", tid, cpus, e.getErrorCode());
    }
  }

  /** Reads a kernel mask ({@link AffinityCalls#byteOf(int)}). */
  private static CpuSet read(byte[] mask) {
    BitSet bits = new BitSet();
    for (int i = 0; i < mask.length; i++) {
      int b = mask[i] & 0xFF;
      int first = b == 0 ? 0 : AffinityCalls.firstCpuOf(i);
      while (b != 0) {
        bits.set(first + Integer.numberOfTrailingZeros(b));
        b &= b - 1;
      }
    }
    return CpuSet.of(bits);
  }
}
