package io.github.affinitykit.core.os;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.natives.NativeLayer;

/**
 * The system calls behind pinning: read and set the CPU mask of a thread by its Linux thread id,
 * learn the calling thread's id and the CPU it runs on.
 *
 * <p>Obtain the platform's backend with {@link #detect()}, which probes when called (never in a
 * static initialiser) and returns an {@link #unsupported unsupported} backend rather than failing
 * where pinning is impossible. Tests use {@code RecordingAffinityBackend} from affinity-core's
 * test-jar.
 *
 * <p>Thread ids ({@code tid}) are kernel thread ids ({@code gettid()}, the {@code nid} of {@code
 * jcmd Thread.print}); {@code 0} means the calling thread. On a virtual thread they name the
 * carrier it runs on at that moment.
 *
 * <p>Thread safety: every implementation is safe for concurrent use by any number of threads.
 */
public interface AffinityBackend {

  /**
   * Returns the platform's backend: the Linux backend when the OS is Linux, this JVM's native layer
   * loads and libc answers {@code sched_getaffinity}, otherwise an {@link #unsupported} backend
   * whose {@link #reason()} says why (and, where JNA cannot load its stub from a {@code noexec}
   * directory, how to fix that). Never throws for a missing capability.
   *
   * <p>The native layer is chosen once per JVM, on first use: {@code java.lang.foreign} on JDK 22+
   * (nothing extracted or loaded from a file), JNA on JDK 17-21 ({@code
   * -Daffinitykit.native=ffm|jna} forces one). On JDK 22+ run with {@code
   * --enable-native-access=ALL-UNNAMED} ({@code =io.github.affinitykit.core} on the module path);
   * under {@code --illegal-native-access=deny} the result is the no-op backend with that reason.
   *
   * @return the platform's backend; thread-safe
   */
  static AffinityBackend detect() {
    return LinuxAffinityBackend.on(NativeLayer.system());
  }

  /**
   * Returns the backend of a platform that cannot pin: {@link #isSupported()} is false, {@link
   * #reason()} says why, ids and CPUs are the {@code -1} sentinel, and reading or setting a mask
   * throws {@link UnsupportedOperationException} naming the reason (pinning that silently did
   * nothing would be a lie). What {@link #detect()} returns where pinning is impossible; tests and
   * the applications' pinning-off runs use it too.
   *
   * @param reason why pinning is impossible, as {@code "os.name Mac OS X: only Linux is
   *     supported"}; not blank
   * @return an immutable backend, safe to share
   * @throws IllegalArgumentException if {@code reason} is blank
   */
  static AffinityBackend unsupported(String reason) {
    return new NoopAffinityBackend(reason);
  }

  /**
   * Returns whether this backend can read and set CPU masks.
   *
   * @return true if the mask calls reach the kernel; false for a no-op backend, whose calls throw
   */
  boolean isSupported();

  /**
   * Returns what this backend uses when supported, or why it is not supported: never empty.
   *
   * @return a one-line human-readable description
   */
  String reason();

  /**
   * Returns the kernel thread id (TID) of the calling thread, or {@code -1} if unknown (no-op
   * backend).
   *
   * @return the TID, positive; -1 where the backend cannot know it
   * @throws IllegalStateException where the backend pins but cannot read the TID now (Linux without
   *     {@code gettid} and with {@code /proc/thread-self} unreadable): a pinning backend never
   *     guesses a TID
   */
  int currentThreadId();

  /**
   * Returns the CPU the calling thread is running on at this instant ({@code sched_getcpu}), or
   * {@code -1} if unknown. Without a single-CPU mask it may be stale as soon as it returns.
   *
   * @return the CPU id, 0-based; -1 when the backend or the kernel cannot tell
   */
  int currentCpu();

  /**
   * Returns the CPU mask of a thread.
   *
   * @param tid kernel thread id, {@code 0} for the calling thread
   * @return the CPUs the thread may run on, never empty
   * @throws IllegalArgumentException if {@code tid < 0}
   * @throws AffinityException if the kernel refuses (no such thread: {@code ESRCH})
   * @throws UnsupportedOperationException if {@link #isSupported()} is false
   */
  CpuSet getAffinity(int tid);

  /**
   * Sets the CPU mask of a thread. The kernel keeps only the CPUs the thread may use (cgroup
   * cpuset, online CPUs): read the mask back with {@link #getAffinity(int)} to see what it kept.
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
