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
  /** Bound to a CPU another thread of the same group also uses (run-out policy SHARE). */
  SHARED,
  /** Not bound: the pool ran out (run-out policy UNPINNED); runs on the process's CPUs. */
  UNPINNED,
  /** Not bound: this platform cannot pin (see the backend's reason). */
  UNSUPPORTED,
  /** Not bound: the kernel refused (the reason carries errno and CPU). */
  FAILED,
  /**
   * Still bound to its CPU, but the CPU's reservation was lost: a lock file was deleted or replaced
   * under it (OpenHFT deletes {@code cpu-<N>.lock} when it releases), so another process may take
   * the CPU. Found by {@link CpuLease#verify()}, {@link CpuReservations#verifyHeld()} or the check
   * on release; counted in {@link CpuReservations#lostCount()}.
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
