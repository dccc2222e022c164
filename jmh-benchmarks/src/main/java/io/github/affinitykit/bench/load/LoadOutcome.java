package io.github.affinitykit.bench.load;

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
 * @param rate the offered rate every scenario ran at, msg/s (0 = maximum throughput)
 * @param scenarios the scenarios that ran, in the options' order
 * @param trials every trial, in the order run
 * @param notes what the run had to leave out, and why
 */
record LoadOutcome(
    HostFacts host,
    Optional<Calibration.Result> calibration,
    long rate,
    List<Scenario> scenarios,
    List<Trial> trials,
    List<String> notes) {

  /** Validates. */
  LoadOutcome {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(calibration, "calibration");
    scenarios = List.copyOf(scenarios);
    trials = List.copyOf(trials);
    notes = List.copyOf(notes);
  }
}
