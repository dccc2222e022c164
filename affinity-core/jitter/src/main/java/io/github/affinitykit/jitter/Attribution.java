package io.github.affinitykit.jitter;

import java.util.List;
import java.util.stream.Collectors;

/**
 * What moved on a gap's CPU while it happened: the counters read before the gap started and after
 * it ended that differ. The two readings bracket the gap; the bracket ({@link #bracketNs()}) is
 * longer than the gap, so a counter that moves steadily (the local timer, {@code irq LOC}, at the
 * kernel's tick rate) can move in the bracket without having caused the gap: each move says what
 * its rate over the window would have given in the bracket ({@link CounterMove#expected()}), and
 * the bracket is there to read beside the gap's length. A gap whose bracket shows no move is {@code
 * unexplained}: a cause the counters do not see (an SMI, a hypervisor's steal, a cache or TLB miss
 * storm, a frequency change).
 *
 * <p>Thread safety: immutable.
 *
 * @param moved the counters that moved in the bracket, largest move first; empty if none did
 * @param fromNanos {@link System#nanoTime()} when the reading before the gap began
 * @param toNanos {@link System#nanoTime()} when the reading after the gap ended
 * @param counted whether both readings had counters for the CPU; false where the files could not be
 *     read (another OS, a refusal) or the thread had no CPU of its own
 */
public record Attribution(List<CounterMove> moved, long fromNanos, long toNanos, boolean counted) {
  /** The most moves {@link #cause()} names. */
  private static final int NAMED = 5;

  /** What a gap without readings is attributed to. */
  static final Attribution NOT_COUNTED = new Attribution(List.of(), 0, 0, false);

  /**
   * Copies the moves.
   *
   * @param moved the counters that moved; not null
   * @param fromNanos when the reading before began
   * @param toNanos when the reading after ended
   * @param counted whether both readings had counters
   */
  public Attribution {
    moved = List.copyOf(moved);
  }

  /**
   * Returns whether a counter moved in the bracket.
   *
   * @return true if {@link #moved()} is not empty
   */
  public boolean explained() {
    return !moved.isEmpty();
  }

  /**
   * Returns the bracket's length: how precisely the moves are placed.
   *
   * @return {@code toNanos - fromNanos}, 0 when not counted
   */
  public long bracketNs() {
    return toNanos - fromNanos;
  }

  /**
   * Returns the cause in a few words: the largest five moves ({@code "irq LOC +1, softirq TIMER
   * +1"}, then {@code " and 3 more"}), {@code "unexplained"} when nothing moved, {@code "not
   * counted"} without readings.
   *
   * @return the cause, never empty
   */
  public String cause() {
    if (!counted) {
      return "not counted";
    }
    if (moved.isEmpty()) {
      return "unexplained";
    }
    String named =
        moved.stream().limit(NAMED).map(CounterMove::toString).collect(Collectors.joining(", "));
    return moved.size() > NAMED ? named + " and " + (moved.size() - NAMED) + " more" : named;
  }
}
