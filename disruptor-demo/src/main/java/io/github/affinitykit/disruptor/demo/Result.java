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
 * @param eventsPerSecond burst throughput: events published as fast as possible, until drained
 * @param latency end-to-end latency at the paced rate, from the intended send time
 * @param switches the consumers' context switches, paced window
 * @param coresBusy CPUs the process used during the burst (1.0 = one CPU fully)
 * @param coresIdle CPUs the process used while nothing was published
 * @param othersCores CPUs other processes and the kernel used meanwhile (the noise), -1 if unknown
 * @param errors events lost, duplicated or reordered (must be 0)
 * @param note what went wrong or was cut short; empty when nothing
 */
record Result(
    Scenario scenario,
    WaitChoice choice,
    double eventsPerSecond,
    Latency latency,
    Switches switches,
    double coresBusy,
    double coresIdle,
    double othersCores,
    long errors,
    String note) {
  Result {
    Objects.requireNonNull(scenario, "scenario");
    Objects.requireNonNull(choice, "choice");
    Objects.requireNonNull(latency, "latency");
    Objects.requireNonNull(switches, "switches");
    Objects.requireNonNull(note, "note");
  }
}
