package io.github.affinitykit.disruptor.demo;

import io.github.affinitykit.disruptor.WaitChoice;
import java.util.Objects;

/**
 * What one scenario measured.
 *
 * <p>Thread safety: immutable.
 *
 * @param scenario the scenario
 * @param choice the strategy used and the placement behind it
 * @param measured throughput, latency, switches, CPUs busy and idle ({@link Measured#coresCalm}:
 *     nothing published), errors
 */
record Result(Scenario scenario, WaitChoice choice, Measured measured) {
  Result {
    Objects.requireNonNull(scenario, "scenario");
    Objects.requireNonNull(choice, "choice");
    Objects.requireNonNull(measured, "measured");
  }
}
