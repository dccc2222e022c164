package io.github.affinitykit.isolation;

/**
 * Where an isolation stands.
 *
 * <p>Thread safety: an enum.
 */
public enum IsolationStatus {
  /** A dry run: the plan only, nothing changed. */
  PLANNED,
  /** The CPUs are isolated; closing the handle undoes it. */
  ISOLATED,
  /**
   * Not applied (a missing permission, a conflict, a kernel refusal undone): see why; a refused
   * plan still lists the changes applying would make. Nothing is left changed unless the rollback
   * itself failed, which the report's changes then show.
   */
  REFUSED,
  /** Undone: every change put back, or the report's changes say which could not be. */
  RELEASED
}
