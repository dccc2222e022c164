package io.github.affinitykit.disruptor.demo;

import io.github.affinitykit.disruptor.Pinning;
import java.util.List;
import java.util.Objects;

/**
 * What one {@code compare-queues} row measured.
 *
 * <p>Thread safety: immutable.
 *
 * @param contender what carried the events
 * @param consumers consumers, each seeing every event (1 = 1P→1C)
 * @param pinning what was pinned
 * @param cpus the CPU each thread was bound to, {@code producer/consumer,…}; {@code *} = unpinned
 * @param ranOn the CPU each thread was last seen on after the paced window, same layout
 * @param assignments one line per thread: name, CPU, lease status and reason
 * @param published events the producer published
 * @param delivered events the consumers took, all together (published × consumers when none lost)
 * @param measured throughput, latency, switches, CPUs in the burst and the paced window ({@link
 *     Measured#coresCalm}), errors
 */
record Comparison(
    Contender contender,
    int consumers,
    Pinning pinning,
    String cpus,
    String ranOn,
    List<String> assignments,
    long published,
    long delivered,
    Measured measured) {
  Comparison {
    Objects.requireNonNull(contender, "contender");
    Objects.requireNonNull(pinning, "pinning");
    Objects.requireNonNull(cpus, "cpus");
    Objects.requireNonNull(ranOn, "ranOn");
    assignments = List.copyOf(assignments);
    Objects.requireNonNull(measured, "measured");
  }

  /** Returns {@code 1P→NC}. */
  String shape() {
    return "1P→" + consumers + "C";
  }

  /** Returns whether every event reached every consumer, once and in order. */
  boolean ok() {
    return measured.clean() && delivered == published * consumers;
  }

  /** Returns the table's check column: {@code ok}, or what was missing, lost or cut short. */
  String check() {
    return measured.check(ok() ? "" : delivered + "/" + published * consumers + " taken");
  }
}
