package io.github.affinitykit.numa;

import io.github.affinitykit.numa.internal.MemoryLayer;

/**
 * The system calls behind a thread's memory policy: read and set the calling thread's {@link
 * MemoryPolicy} ({@code get_mempolicy}, {@code set_mempolicy}, which act on the caller only).
 * {@link #detect()} returns the platform's; a group uses another through {@link
 * MemoryPolicy#through} (affinity-numa's tests give {@code RecordingMemoryBackend}). Neither call
 * throws for a kernel refusal: each answers the errno.
 *
 * <p>Thread safety: every implementation is safe for concurrent use by any number of threads; each
 * call acts on the calling thread.
 */
public interface MemoryBackend {
  /**
   * What {@link #read()} found: the calling thread's policy, or the errno that kept it from being
   * read.
   *
   * @param policy the policy read; {@link MemoryPolicy#DEFAULT} when {@code errno} is not 0
   * @param errno 0, or the kernel's errno ({@code -1} where the platform has no such call)
   */
  record Reading(MemoryPolicy policy, int errno) {
    /**
     * Checks the parts.
     *
     * @param policy the policy read; {@link MemoryPolicy#DEFAULT} when {@code errno} is not 0
     * @param errno 0, or the kernel's errno ({@code -1} where the platform has no such call)
     * @throws NullPointerException if {@code policy} is null
     */
    public Reading {
      java.util.Objects.requireNonNull(policy, "policy");
    }
  }

  /**
   * Returns the platform's backend: the Linux one on this JVM's native calls, or one that says why
   * there is none ({@link #isSupported()} false). Never throws for a missing capability.
   *
   * @return the platform's backend
   */
  static MemoryBackend detect() {
    return LinuxMemoryBackend.on(MemoryLayer.system());
  }

  /**
   * Returns whether the calls reach the kernel.
   *
   * @return false where the platform has none: every call then answers errno {@code -1}
   */
  boolean isSupported();

  /**
   * Returns what this backend uses, or why it has no calls.
   *
   * @return one line for people, never empty
   */
  String reason();

  /**
   * Reads the calling thread's policy ({@code get_mempolicy}).
   *
   * @return the policy, or the errno
   */
  Reading read();

  /**
   * Sets the calling thread's policy ({@code set_mempolicy}); {@link MemoryPolicy#DEFAULT} returns
   * it to the system default (the node of the CPU that first touches a page).
   *
   * @param policy the policy
   * @return 0, or the errno ({@code EINVAL} for a node this host lacks; {@code -1} where the
   *     platform has no such call)
   */
  int set(MemoryPolicy policy);
}
