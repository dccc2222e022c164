package io.github.affinitykit.disruptor.demo;

import java.util.Objects;

/**
 * What one pipeline run measured, the same for a demo row ({@link Result}) and a {@code
 * compare-queues} row ({@link Comparison}): a burst flat out, then a calm window (events at a paced
 * rate in compare-queues, nothing published in the demo).
 *
 * <p>Thread safety: immutable.
 *
 * @param eventsPerSecond burst throughput: events published flat out, until every consumer had all
 * @param latency end-to-end latency at the paced rate, from each event's intended send time
 * @param switches the consumers' context switches, paced window
 * @param coresBurst CPUs the process used during the burst (1.0 = one CPU all the time)
 * @param coresCalm CPUs the process used in the calm window: paced (compare-queues) or idle (demo)
 * @param othersCores CPUs other processes and the kernel used meanwhile (the noise), -1 if unknown
 * @param errors events lost, duplicated or reordered (must be 0)
 * @param note what went wrong or was cut short; empty when nothing
 */
record Measured(
    double eventsPerSecond,
    Latency latency,
    Switches switches,
    double coresBurst,
    double coresCalm,
    double othersCores,
    long errors,
    String note) {
  Measured {
    Objects.requireNonNull(latency, "latency");
    Objects.requireNonNull(switches, "switches");
    Objects.requireNonNull(note, "note");
  }

  /** Returns whether no event was lost, duplicated or reordered and nothing was cut short. */
  boolean clean() {
    return errors == 0 && note.isEmpty();
  }

  /**
   * Returns the table's check column: {@code ok} when {@code shortfall} is empty and no event was
   * lost or reordered, else {@code shortfall} and {@code N MISSING/REORDERED}; then the note, if
   * any, in parentheses.
   *
   * @param shortfall what the row itself found missing, such as {@code 299/300 taken}; empty if
   *     nothing
   */
  String check(String shortfall) {
    String check = shortfall.isEmpty() && errors == 0 ? "ok" : shortfall;
    if (errors != 0) {
      check = (check.isEmpty() ? "" : check + ", ") + errors + " MISSING/REORDERED";
    }
    return note.isEmpty() ? check : check + " (" + note + ")";
  }
}
