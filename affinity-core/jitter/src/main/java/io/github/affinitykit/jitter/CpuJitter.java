package io.github.affinitykit.jitter;

import io.github.affinitykit.audit.CpuVerdict;
import io.github.affinitykit.core.LeaseStatus;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one sampling thread saw on its CPU over the window, and what moved there.
 *
 * <p>The time lost is the sum of every gap at or above the floor, exactly ({@code lostNs} is the
 * sum the histogram counts); gaps below the floor are the loop itself and are not lost time.
 *
 * <p>Thread safety: immutable.
 *
 * @param cpu the CPU asked for
 * @param status the sampling thread's lease: {@code PINNED} when it ran on {@code cpu} alone;
 *     anything else means the gaps are not that CPU's (another process holds it, no pinning here)
 * @param reason the lease's reason
 * @param spanNs the time from the thread's first clock read to its last: the window it sampled
 * @param samples the clock reads it made
 * @param histogram the gaps at or above the floor by length
 * @param lostNs the sum of those gaps, ns
 * @param largest the longest gaps, longest first, at most as many as the sampler keeps
 * @param overThreshold the gaps at or over the threshold in time order, at most the log's capacity
 * @param overThresholdDropped the gaps over the threshold left out of {@code overThreshold} once it
 *     was full (they are in the histogram and the lost time all the same)
 * @param window the counters that moved on the CPU from the window's start to its end; empty if
 *     they could not be read
 * @param audit the audit of the CPU over the same window (who else ran or may run there, IRQs that
 *     land there, a busy sibling), if one was asked for and could run
 */
public record CpuJitter(
    int cpu,
    LeaseStatus status,
    String reason,
    long spanNs,
    long samples,
    GapHistogram histogram,
    long lostNs,
    List<Gap> largest,
    List<Gap> overThreshold,
    long overThresholdDropped,
    List<CounterMove> window,
    Optional<CpuVerdict> audit) {
  /**
   * Validates and copies the lists.
   *
   * @param cpu the CPU
   * @param status the lease's status; not null
   * @param reason the lease's reason; not null
   * @param spanNs the span sampled, ns
   * @param samples the clock reads
   * @param histogram the histogram; not null
   * @param lostNs the time lost, ns
   * @param largest the longest gaps; not null
   * @param overThreshold the gaps over the threshold; not null
   * @param overThresholdDropped those left out
   * @param window the counters' moves over the window; not null
   * @param audit the audit's verdict; not null
   */
  public CpuJitter {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(histogram, "histogram");
    largest = List.copyOf(largest);
    overThreshold = List.copyOf(overThreshold);
    window = List.copyOf(window);
    Objects.requireNonNull(audit, "audit");
  }

  /**
   * Returns the share of the span lost in gaps.
   *
   * @return {@code lostNs / spanNs}, in [0, 1]; 0 for an empty span
   */
  public double lostShare() {
    return spanNs <= 0 ? 0 : Math.min(1.0, (double) lostNs / spanNs);
  }

  /**
   * Returns the longest gap.
   *
   * @return its length in ns; 0 if no gap reached the floor
   */
  public long maxGapNs() {
    return largest.isEmpty() ? 0 : largest.get(0).durationNs();
  }

  /**
   * Returns one line: the CPU, its lease, the gaps, the longest with its cause.
   *
   * @return e.g. {@code "cpu 1 PINNED: 2,000,000 reads, 812 gaps, 0.013% lost, max 41.2 µs (irq LOC
   *     +1)"}
   */
  public String summary() {
    return String.format(
        java.util.Locale.ROOT,
        "cpu %d %s: %,d reads, %,d gaps, %.3f%% lost, max %.1f µs%s",
        cpu,
        status,
        samples,
        histogram.totalCount(),
        100 * lostShare(),
        maxGapNs() / 1000.0,
        largest.isEmpty() ? "" : " (" + largest.get(0).attribution().cause() + ")");
  }
}
