package io.github.affinitykit.core.isolation;

/**
 * What became of the process that made an isolation.
 *
 * <p>Thread safety: an enum.
 */
public enum OwnerState {
  /** It still runs: it undoes the isolation when it closes it or exits normally. */
  ALIVE,
  /**
   * No process with its pid and start time: it was killed or crashed; {@code release} undoes it.
   */
  DEAD,
  /** The machine rebooted since: nothing of the isolation is left to undo. */
  EARLIER_BOOT,
  /** Its journal cannot be read: see the problem. */
  UNKNOWN
}
