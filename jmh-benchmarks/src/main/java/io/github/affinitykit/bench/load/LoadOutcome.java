package io.github.affinitykit.bench.load;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything a load test run produced, for the reports.
 *
 * <p>Thread safety: immutable.
 *
 * @param host the host facts that decide the verdict
 * @param calibration how the rate was found; empty when {@code --rate} fixed it
 * @param rate the first round's offered rate, msg/s: the calibrated or fixed one (0 = maximum
 *     throughput); each trial holds its own
 * @param scenarios the arms that ran, controls included, in the options' order
 * @param trials every trial, in the order run, those that were not usable included
 * @param notes what the run had to leave out, and why
 * @param handicap the handicapped arm's handicap
 * @param budgetSpent whether the time budget ended the run before every arm had its usable trials
 * @param elapsed the run's wall time, calibration included
 */
record LoadOutcome(
    HostFacts host,
    Optional<Calibration.Result> calibration,
    long rate,
    List<Scenario> scenarios,
    List<Trial> trials,
    List<String> notes,
    Handicap handicap,
    boolean budgetSpent,
    Duration elapsed) {

  /** Validates. */
  LoadOutcome {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(calibration, "calibration");
    scenarios = List.copyOf(scenarios);
    trials = List.copyOf(trials);
    notes = List.copyOf(notes);
    Objects.requireNonNull(elapsed, "elapsed");
  }
}
