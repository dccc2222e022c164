package io.github.affinitykit.core.os;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.ProcNumbers;
import io.github.affinitykit.core.internal.natives.Errno;
import io.github.affinitykit.core.internal.natives.NativeLayer;
import io.github.affinitykit.core.internal.natives.ThreadCalls;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Objects;

/**
 * Linux affinity through the native layer's {@link ThreadCalls}. Masks are sized for the host, not
 * glibc's 1024-CPU {@code cpu_set_t}: the buffer doubles while the kernel answers {@code EINVAL},
 * up to {@link CpuSet#MAX_CPUS} bits. Why not OpenHFT's {@code Affinity}: ARCHITECTURE.md, "Backend
 * without OpenHFT's Affinity".
 *
 * <p>Thread safety: safe for concurrent use; the learnt mask size is a benign racy cache.
 */
final class LinuxAffinityBackend implements AffinityBackend {
  private static final int MIN_MASK_WORDS = 1024 / 64;
  private static final int MAX_MASK_WORDS = CpuSet.MAX_CPUS / 64;

  private final ThreadCalls calls;
  private final String layer;
  private final boolean hasGettid;
  private volatile int maskWords = MIN_MASK_WORDS;

  private LinuxAffinityBackend(ThreadCalls calls, String layer) {
    this.calls = calls;
    this.layer = layer;
    this.hasGettid = calls.threadId() > 0;
  }

  /** The backend on {@code layer}, or a no-op one saying why there is none. */
  static AffinityBackend on(NativeLayer layer) {
    if (layer.threads().isEmpty()) {
      return new NoopAffinityBackend(layer.why());
    }
    LinuxAffinityBackend backend = new LinuxAffinityBackend(layer.threads().get(), layer.name());
    try {
      backend.getAffinity(0);
      return backend;
    } catch (AffinityException e) {
      return new NoopAffinityBackend("sched_getaffinity failed: " + e.getMessage());
    }
  }

  @Override
  public boolean isSupported() {
    return true;
  }

  @Override
  public String reason() {
    return String.format(
        "Linux: %s calls libc sched_setaffinity/sched_getaffinity by TID (%d-bit masks),"
            + " sched_getcpu, %s",
        layer, maskWords * 64, hasGettid ? "gettid" : "/proc/thread-self");
  }

  @Override
  public int currentThreadId() {
    if (hasGettid) {
      return calls.threadId();
    }
    return threadSelf(Path.of("/proc/thread-self"));
  }

  /**
   * The TID at the end of the link {@code link} ({@code /proc/thread-self}: {@code
   * <pid>/task/<tid>}, Linux 3.17+), where the C library has no {@code gettid}.
   */
  static int threadSelf(Path link) {
    String target;
    try {
      target = Files.readSymbolicLink(link).toString();
    } catch (IOException | UnsupportedOperationException e) {
      throw new IllegalStateException(
          link + ": unreadable, " + e + " (expected: a link <pid>/task/<tid>)", e);
    }
    long tid = ProcNumbers.counter(target.substring(target.lastIndexOf('/') + 1));
    if (tid < 0 || tid > Integer.MAX_VALUE) {
      throw new IllegalStateException(
          link + ": " + target + " (expected: a link <pid>/task/<tid>)");
    }
    return (int) tid;
  }

  @Override
  public int currentCpu() {
    int cpu = calls.currentCpu();
    return cpu >= 0 ? cpu : -1;
  }

  @Override
  public CpuSet getAffinity(int tid) {
    checkTid(tid);
    int words = maskWords;
    while (true) {
      long[] mask = new long[words];
      int err = -calls.getAffinity(tid, mask);
      if (err == 0) {
        maskWords = Math.max(maskWords, words);
        return CpuSet.of(BitSet.valueOf(mask));
      }
      if (err != Errno.EINVAL || words >= MAX_MASK_WORDS) {
        throw new AffinityException("sched_getaffinity", tid, CpuSet.empty(), err);
      }
      words *= 2; // the kernel's mask is wider than ours
    }
  }

  @Override
  public void setAffinity(int tid, CpuSet cpus) {
    checkTid(tid);
    checkCpus(cpus);
    long[] bits = cpus.toBitSet().toLongArray();
    int err = -calls.setAffinity(tid, Arrays.copyOf(bits, Math.max(maskWords, bits.length)));
    if (err != 0) {
      throw new AffinityException("sched_setaffinity", tid, cpus, err);
    }
  }

  /** Rejects a negative thread id, in the words every backend of this package uses. */
  static int checkTid(int tid) {
    if (tid < 0) {
      throw new IllegalArgumentException("tid: " + tid + " (expected: >= 0, 0 = calling thread)");
    }
    return tid;
  }

  /** Rejects a null or empty CPU set, in the words every backend of this package uses. */
  static CpuSet checkCpus(CpuSet cpus) {
    Objects.requireNonNull(cpus, "cpus");
    if (cpus.isEmpty()) {
      throw new IllegalArgumentException("cpus: empty (expected: at least one CPU)");
    }
    return cpus;
  }
}
