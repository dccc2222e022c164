package io.github.affinitykit.watchdog;

/**
 * What a {@link Watchdog} does with a lease it finds {@link
 * io.github.affinitykit.core.LeaseStatus#MOVED}: the kernel, a cpuset change or another program
 * widened the pinned thread's mask.
 *
 * <p>Thread safety: an enum; immutable.
 */
public enum RepinPolicy {
  /** Reports the move and leaves the thread on the mask it was given: the default. */
  REPORT,
  /**
   * Reports the move, then binds the thread to its CPU again when the kernel still allows it there
   * (a cpuset that shrank but kept the CPU, an operator's {@code taskset}); a thread whose CPU is
   * gone (offline, or no longer in its cpuset) is reported {@link WatchEvent.Kind#NOT_REPINNED}
   * with the mask it runs on and left there, and re-pinned by a later check once its CPU is allowed
   * again. Choosing it another CPU is {@link #REPLAN}'s, or the application's: close the lease and
   * bind again.
   */
  REPIN,
  /**
   * As {@link #REPIN}, and a thread whose CPU is gone is re-planned: its group reserves it a free
   * CPU of the pool that the kernel now allows it on, as a new member's would be chosen (the
   * placements, whole cores, the reservations across processes), binds it there and frees the CPU
   * that went away, reported {@link WatchEvent.Kind#REPLANNED} ({@code re-planned from cpu 4 to cpu
   * 2: ...}). Where none is free, or the CPU is shared with another member, it is reported {@link
   * WatchEvent.Kind#NOT_REPINNED} with why, and tried again at every check. Opt-in: it takes
   * another reservation behind the application's back.
   */
  REPLAN
}
