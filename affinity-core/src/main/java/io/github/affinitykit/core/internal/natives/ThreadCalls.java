package io.github.affinitykit.core.internal.natives;

/**
 * The calls behind pinning, one implementation per native technology ({@code JnaLibc} on JDK 17-21,
 * {@code FfmLibc} with {@code java.lang.foreign} on 22+), chosen once by {@link NativeLayer}. Every
 * call returns its result, or {@code -errno} when it fails ({@link Errno}): nothing throws for a
 * kernel refusal.
 *
 * <p>A CPU mask is a {@code long[]}: bit {@code i} of word {@code w} is CPU {@code 64w + i}, the
 * kernel's own layout of {@code unsigned long} words on every 64-bit and every little-endian ABI
 * (the only ones this layer offers these calls on). {@code tid 0} is the calling thread.
 *
 * <p>Thread safety: implementations are safe for concurrent use by any number of threads.
 */
public interface ThreadCalls {
  /** {@code SIGKILL}. */
  int SIGKILL = 9;

  /**
   * {@code SIGCONT}: 18 on every ABI of {@link LinuxAbi} (x86-64, aarch64, riscv64, s390x,
   * loongarch64, POWER; MIPS, SPARC and Alpha, which number it otherwise, are not among them).
   */
  int SIGCONT = 18;

  /**
   * {@code sched_getaffinity(tid, mask.length * 8, mask)}.
   *
   * @return 0, or {@code -EINVAL} when the kernel's mask is wider than {@code mask}, {@code -ESRCH}
   *     for an unknown thread
   */
  int getAffinity(int tid, long[] mask);

  /** {@code sched_setaffinity(tid, mask.length * 8, mask)}: 0 or {@code -errno}. */
  int setAffinity(int tid, long[] mask);

  /** {@code sched_getcpu()}: the CPU the caller runs on now, or {@code -errno}. */
  int currentCpu();

  /**
   * {@code gettid()} through {@code syscall(2)}: the caller's kernel thread id, or {@code -ENOSYS}
   * on an ABI whose number is unknown (read {@code /proc/thread-self} then).
   */
  int threadId();

  /**
   * {@code kill(pid, signal)}: sends {@code signal} to process {@code pid} (0 checks that it exists
   * and may be signalled), without a {@code kill} program looked up on {@code PATH}.
   *
   * @return 0, or {@code -ESRCH} for no such process, {@code -EPERM} for another user's, {@code
   *     -EINVAL} for an unknown signal
   */
  int kill(int pid, int signal);
}
