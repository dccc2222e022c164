package io.github.affinitykit.jitter;

import java.util.Objects;

/**
 * How much one per-CPU counter of the kernel moved on one CPU between two readings.
 *
 * <p>Sources are named after their file and row: {@code irq LOC} (the local timer), {@code irq
 * RES}, {@code irq 45} ({@code /proc/interrupts}), {@code softirq TIMER} ({@code /proc/softirqs}),
 * {@code sched switch-in} (tasks switched in on the CPU, {@code /proc/schedstat}: another task ran
 * there) and {@code steal ticks} (time a hypervisor ran something else on the virtual CPU, in
 * USER_HZ ticks of 10 ms, {@code /proc/stat}: it moves only once a tick's worth accumulated).
 *
 * <p>Thread safety: immutable.
 *
 * @param source the counter, as above; not null
 * @param delta how much it moved, positive
 * @param expected how much it would have moved in the same time at its steady rate over the whole
 *     window: a move near this is the counter's routine (the tick's), not the gap's cause; for the
 *     window's own moves, the move itself
 */
public record CounterMove(String source, long delta, double expected) {
  /**
   * Validates.
   *
   * @param source the counter; not null
   * @param delta how much it moved
   * @param expected how much it moves in that time at its rate over the window
   */
  public CounterMove {
    Objects.requireNonNull(source, "source");
  }

  @Override
  public String toString() {
    return source + " +" + delta;
  }
}
