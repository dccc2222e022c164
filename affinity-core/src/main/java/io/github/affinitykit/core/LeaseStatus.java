package io.github.affinitykit.core;

/**
 * What became of a request to pin a thread.
 *
 * <p>Thread safety: immutable.
 */
public enum LeaseStatus {
  /** Bound to its own reserved CPU. */
  PINNED,
  /**
   * Bound to a CPU another member of the same group also holds (run-out SHARE, a CPU named twice).
   */
  SHARED,
  /**
   * Not bound, on purpose (the group pins nothing, or ran out under run-out UNPINNED): runs on the
   * group's unpinned mask.
   */
  UNPINNED,
  /** Not bound: this platform cannot pin (see the backend's reason). */
  UNSUPPORTED,
  /** Not bound: the kernel refused (the reason carries errno and CPU). */
  FAILED,
  /**
   * Still bound, but the CPU's reservation was lost (a lock file deleted or replaced under it), so
   * another process may take the CPU. Found by {@link CpuLease#verify()} or a watchdog.
   */
  LOST,
  /**
   * Was bound, but the thread no longer runs only on its CPU (the CPU went offline, someone changed
   * its mask). Found by {@link CpuLease#check()}; the CPU stays reserved until the lease closes.
   */
  MOVED,
  /** The lease was closed: the thread's previous mask is restored and the CPU freed. */
  RELEASED
}
