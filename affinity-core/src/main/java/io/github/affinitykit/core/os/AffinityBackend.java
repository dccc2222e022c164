package io.github.affinitykit.core.os;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.natives.NativeLayer;

/**
 * The system calls behind pinning: read and set the CPU mask of a thread by its Linux thread id,
 * learn the calling thread's id and the CPU it runs on.
 *
 * <p>Thread ids ({@code tid}) are kernel thread ids ({@code gettid()}, the {@code nid} of {@code
 * jcmd Thread.print}); {@code 0} means the calling thread; on a virtual thread, its carrier now.
 *
 * <p>Thread safety: every implementation is safe for concurrent use by any number of threads.
 */
public interface AffinityBackend {

  /**
   * {@return the Linux backend where this JVM's native layer loads, else an {@link #unsupported}
   * one whose {@link #reason()} says why and how to fix it} On JDK 22+ run with {@code
   * --enable-native-access=ALL-UNNAMED} ({@code =io.github.affinitykit.core} on the module path).
   */
  static AffinityBackend detect() {
    return LinuxAffinityBackend.on(NativeLayer.system());
  }

  /**
   * Returns the backend of a platform that cannot pin: ids and CPUs are {@code -1}, and reading or
   * setting a mask throws {@link UnsupportedOperationException} naming the reason.
   *
   * @param reason why pinning is impossible, as {@code "os.name Mac OS X: only Linux is
   *     supported"}; not blank
   * @return an immutable backend, safe to share
   * @throws IllegalArgumentException if {@code reason} is blank
   */
  static AffinityBackend unsupported(String reason) {
    return new NoopAffinityBackend(reason);
  }

  /** {@return true if the mask calls reach the kernel; false for a no-op backend, which throws} */
  boolean isSupported();

  /** {@return what this backend uses when supported, or why it is not supported: never empty} */
  String reason();

  /**
   * Returns the kernel thread id (TID) of the calling thread.
   *
   * @return the TID, positive; -1 where the backend cannot know it
   * @throws IllegalStateException where the backend pins but cannot read the TID now (Linux without
   *     {@code gettid} and {@code /proc/thread-self}): it never guesses a TID
   */
  int currentThreadId();

  /**
   * {@return the CPU the calling thread runs on now ({@code sched_getcpu}), -1 if unknown; stale at
   * once unless the thread is pinned to one CPU}
   */
  int currentCpu();

  /**
   * {@return the CPUs thread {@code tid} may run on, never empty}
   *
   * @param tid kernel thread id, {@code 0} for the calling thread
   * @throws IllegalArgumentException if {@code tid < 0}
   * @throws AffinityException if the kernel refuses (no such thread: {@code ESRCH})
   * @throws UnsupportedOperationException if {@link #isSupported()} is false
   */
  CpuSet getAffinity(int tid);

  /**
   * Sets the CPU mask of a thread; the kernel keeps only the CPUs it may use (read it back to see).
   *
   * @param tid kernel thread id, {@code 0} for the calling thread
   * @param cpus the CPUs to allow, not empty
   * @throws IllegalArgumentException if {@code tid < 0} or {@code cpus} is empty
   * @throws AffinityException if the kernel refuses: {@code EINVAL} when no CPU of {@code cpus} is
   *     usable, {@code ESRCH} for an unknown thread, {@code EPERM} for another user's thread
   * @throws UnsupportedOperationException if {@link #isSupported()} is false
   */
  void setAffinity(int tid, CpuSet cpus);
}
