package io.github.affinitykit.core.cli;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One arm of the jitter experiment: how its sampling threads ran, and one row per CPU, or why it
 * did not run.
 *
 * <p>Thread safety: immutable.
 *
 * @param arm the arm's name: {@code unpinned}, {@code pinned}, {@code exclusive}, {@code isolated},
 *     {@code anchor}
 * @param setup how its threads ran, in a sentence
 * @param refused why it did not run; empty when it ran
 * @param rows one per CPU, ascending; empty when refused
 * @param notes what could not be read or run in it
 */
record ArmResult(
    String arm, String setup, Optional<String> refused, List<ArmRow> rows, List<String> notes) {
  ArmResult {
    Objects.requireNonNull(arm, "arm");
    Objects.requireNonNull(setup, "setup");
    Objects.requireNonNull(refused, "refused");
    rows = List.copyOf(rows);
    notes = List.copyOf(notes);
  }

  /** An arm that ran. */
  static ArmResult ran(String arm, String setup, List<ArmRow> rows, List<String> notes) {
    return new ArmResult(arm, setup, Optional.empty(), rows, notes);
  }

  /** An arm that did not run, and why. */
  static ArmResult refused(String arm, String setup, String why) {
    return new ArmResult(arm, setup, Optional.of(why), List.of(), List.of());
  }
}
