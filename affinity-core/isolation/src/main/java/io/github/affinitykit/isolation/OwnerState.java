package io.github.affinitykit.isolation;

/**
 * What became of the process that made an isolation.
 *
 * <p>Thread safety: an enum.
 */
public enum OwnerState {
  /** It still runs: it undoes the isolation when it closes it or exits normally. */
  ALIVE,
  /** Nobody holds its owner lock any more: it was killed or crashed; {@code release} undoes it. */
  DEAD,
  /** The machine rebooted since: nothing of the isolation is left to undo. */
  EARLIER_BOOT,
  /**
   * Its journal is not read or replayed (not to be trusted: a link, another user's, writable by
   * others, too large, naming a path no isolation writes; or garbled), or whether its owner lives
   * cannot be told: see the problem.
   */
  UNKNOWN
}
