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
 * @param eventsPerSecond burst throughput: events published flat out, until every consumer had all
 * @param latency end-to-end latency at the paced rate (all consumers), from the intended time
 * @param switches the consumers' context switches, paced window
 * @param coresBurst CPUs the process used during the burst (1.0 = one CPU)
 * @param coresPaced CPUs the process used during the paced window
 * @param othersCores CPUs other processes and the kernel used meanwhile, -1 if unknown
 * @param published events the producer published
 * @param delivered events the consumers took, all together (published × consumers when none lost)
 * @param errors events lost, duplicated or reordered (must be 0)
 * @param note what went wrong or was cut short; empty when nothing
 */
record Comparison(
    Contender contender,
    int consumers,
    Pinning pinning,
    String cpus,
    String ranOn,
    List<String> assignments,
    double eventsPerSecond,
    Latency latency,
    Switches switches,
    double coresBurst,
    double coresPaced,
    double othersCores,
    long published,
    long delivered,
    long errors,
    String note) {
  Comparison {
    Objects.requireNonNull(contender, "contender");
    Objects.requireNonNull(pinning, "pinning");
    Objects.requireNonNull(cpus, "cpus");
    Objects.requireNonNull(ranOn, "ranOn");
    Objects.requireNonNull(latency, "latency");
    Objects.requireNonNull(switches, "switches");
    assignments = List.copyOf(assignments);
    Objects.requireNonNull(note, "note");
  }

  /** Returns {@code 1P→NC}. */
  String shape() {
    return "1P→" + consumers + "C";
  }

  /** Returns whether every event reached every consumer, once and in order. */
  boolean ok() {
    return errors == 0 && delivered == published * consumers && note.isEmpty();
  }
}
