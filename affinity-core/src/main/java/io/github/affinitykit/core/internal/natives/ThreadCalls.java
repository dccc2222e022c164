package io.github.affinitykit.core.internal.natives;

/**
 * The calls behind pinning, one implementation per native technology, chosen once by {@link
 * NativeLayer}. Every call returns its result, or {@code -errno} ({@link Errno}): nothing throws
 * for a kernel refusal. A CPU mask is a {@code long[]}: bit {@code i} of word {@code w} is CPU
 * {@code 64w + i}, the kernel's layout on every 64-bit and little-endian ABI. {@code tid 0} is the
 * calling thread.
 *
 * <p>Thread safety: implementations are safe for concurrent use by any number of threads.
 */
public interface ThreadCalls {
  int SIGKILL = 9;

  int SIGCONT = 18; // on every ABI of LinuxAbi (not MIPS, SPARC, Alpha)

  /**
   * {@code sched_getaffinity(tid, mask.length * 8, mask)}: 0, or {@code -EINVAL} when the kernel's
   * mask is wider than {@code mask}, {@code -ESRCH} for an unknown thread.
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
   * {@code kill(pid, signal)} (signal 0 checks that it exists and may be signalled): 0, or {@code
   * -ESRCH}, {@code -EPERM} for another user's, {@code -EINVAL} for an unknown signal.
   */
  int kill(int pid, int signal);
}
