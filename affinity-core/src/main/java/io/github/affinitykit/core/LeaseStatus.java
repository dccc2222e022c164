package io.github.affinitykit.core;

import io.github.affinitykit.core.reservation.CpuReservations;

/**
 * What became of a request to pin a thread.
 *
 * <p>Thread safety: immutable.
 */
public enum LeaseStatus {
  /** Bound to its own reserved CPU. */
  PINNED,
  /**
   * Bound to a CPU another member of the same group also holds (run-out policy SHARE, or an
   * explicit CPU named twice). An audit that finds other tasks on a CPU says INTRUDED, never
   * SHARED.
   */
  SHARED,
  /**
   * Not bound, on purpose: the group pins nothing ({@code CpuGroupBuilder.unpinned(reason)}) or the
   * pool ran out under run-out policy UNPINNED; runs on the group's unpinned mask. A lease that was
   * bound and closed is {@link #RELEASED}, not unpinned.
   */
  UNPINNED,
  /** Not bound: this platform cannot pin (see the backend's reason). */
  UNSUPPORTED,
  /** Not bound: the kernel refused (the reason carries errno and CPU). */
  FAILED,
  /**
   * Still bound to its CPU, but the CPU's reservation was lost: a lock file was deleted or replaced
   * under it (OpenHFT deletes {@code cpu-<N>.lock} when it releases), so another process may take
   * the CPU. Found by {@link CpuLease#verify()} or a watchdog's check (then every lease of the seat
   * says so); counted in {@link CpuReservations#lostCount()}.
   */
  LOST,
  /**
   * Was bound, but the thread no longer runs only on its CPU: the kernel moved it (the CPU went
   * offline, a cpuset shrank) or something else changed its mask. Found by {@link
   * CpuLease#check()}; the reason names the mask seen. The CPU stays reserved until the lease is
   * closed.
   */
  MOVED,
  /** The lease was closed: the thread's previous mask is restored and the CPU freed. */
  RELEASED
}
