package io.github.affinitykit.core;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import java.util.BitSet;

/**
 * Linux affinity through JNA calls into libc: {@code sched_getaffinity}/{@code sched_setaffinity}
 * by thread id, {@code sched_getcpu}, {@code gettid}. Masks are sized for the host, not for glibc's
 * 1024-CPU {@code cpu_set_t}: the buffer starts at 1024 bits and doubles while the kernel answers
 * {@code EINVAL} (its mask is larger), up to {@link CpuSet#MAX_CPUS} bits.
 *
 * <p>OpenHFT's {@code Affinity} is not used: it is limited to 1024 CPUs, works on the calling
 * thread only, loses the error text, and its class initialisation probes the platform.
 *
 * <p>Thread safety: safe for concurrent use; the learnt mask size is a benign racy cache.
 */
final class LinuxAffinityBackend implements AffinityBackend {
  private static final int MIN_MASK_BYTES = 1024 / 8;
  private static final int MAX_MASK_BYTES = CpuSet.MAX_CPUS / 8;

  private final LibC libc;
  private final boolean hasGettid;
  private volatile int maskBytes = MIN_MASK_BYTES;

  private LinuxAffinityBackend(LibC libc, boolean hasGettid) {
    this.libc = libc;
    this.hasGettid = hasGettid;
  }

  /**
   * Loads libc and checks that {@code sched_getaffinity} answers for the calling thread.
   *
   * @throws LinkageError if JNA or libc cannot be loaded
   * @throws AffinityException if the kernel refuses {@code sched_getaffinity}
   */
  static LinuxAffinityBackend load() {
    LibC libc = Native.load("c", LibC.class);
    boolean hasGettid;
    try {
      hasGettid = libc.gettid() > 0;
    } catch (UnsatisfiedLinkError e) {
      hasGettid = false; // libc older than glibc 2.30: read /proc/thread-self instead
    }
    LinuxAffinityBackend backend = new LinuxAffinityBackend(libc, hasGettid);
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
      return libc.gettid();
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
      int cpu = libc.sched_getcpu();
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
      try (Memory mask = new Memory(bytes)) {
        mask.clear();
        libc.sched_getaffinity(tid, new NativeLong(bytes), mask);
        maskBytes = Math.max(maskBytes, bytes);
        return read(mask, bytes);
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
    int bytes = Math.max(maskBytes, words * NativeLong.SIZE);
    try (Memory mask = new Memory(bytes)) {
      mask.clear();
      write(mask, cpus.toBitSet());
      libc.sched_setaffinity(tid, new NativeLong(bytes), mask);
    } catch (LastErrorException e) {
      throw new AffinityException("sched_setaffinity", tid, cpus, e.getErrorCode());
    }
  }

  /** Reads a kernel mask: {@code unsigned long} words, bit {@code n % bits} of word {@code n}. */
  private static CpuSet read(Memory mask, int bytes) {
    BitSet bits = new BitSet();
    int wordBits = NativeLong.SIZE * 8;
    for (int w = 0; w < bytes / NativeLong.SIZE; w++) {
      long word = mask.getNativeLong((long) w * NativeLong.SIZE).longValue();
      if (wordBits == 32) {
        word &= 0xFFFF_FFFFL;
      }
      while (word != 0) {
        bits.set(w * wordBits + Long.numberOfTrailingZeros(word));
        word &= word - 1;
      }
    }
    return CpuSet.of(bits);
  }

  private static void write(Memory mask, BitSet cpus) {
    int wordBits = NativeLong.SIZE * 8;
    for (int cpu = cpus.nextSetBit(0); cpu >= 0; cpu = cpus.nextSetBit(cpu + 1)) {
      long offset = (long) (cpu / wordBits) * NativeLong.SIZE;
      long word = mask.getNativeLong(offset).longValue() | (1L << (cpu % wordBits));
      // NativeLong checks the value fits its width: sign-extend 32-bit words
      mask.setNativeLong(offset, new NativeLong(wordBits == 32 ? (int) word : word));
    }
  }
}
