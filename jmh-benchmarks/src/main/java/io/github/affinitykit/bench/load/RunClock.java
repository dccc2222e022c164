package io.github.affinitykit.bench.load;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The run's time budget and its pace: whether the next trial still fits, and the time left for
 * progress lines (the trials still needed at the measured pace, and what is left of the budget).
 *
 * <p>Thread safety: one controlling thread.
 */
final class RunClock {
  /** What the budget keeps for writing the reports and ending the JVM. */
  static final Duration REPORT = Duration.ofSeconds(3);

  private final Duration budget;
  private final Duration estimate;
  private final LongSupplier nanoTime;
  private final long began;
  private long trialsNs;
  private long longestNs;
  private int trials;

  /**
   * A clock for a run of {@code budget} whose trials take about {@code perTrial} until measured,
   * reading time from {@code nanoTime}.
   */
  RunClock(Duration budget, Duration perTrial, LongSupplier nanoTime) {
    this.budget = budget;
    this.estimate = perTrial;
    this.nanoTime = nanoTime;
    this.began = nanoTime.getAsLong();
  }

  /** A trial took {@code ns}. */
  void trialTook(long ns) {
    trialsNs += ns;
    trials++;
    longestNs = Math.max(longestNs, ns);
  }

  /** A trial's expected length: the mean so far, else the estimate. */
  Duration perTrial() {
    return trials == 0 ? estimate : Duration.ofNanos(trialsNs / trials);
  }

  /** When the budget, less {@link #REPORT}, ends: {@link System#nanoTime()}-based. */
  long deadlineNs() {
    return began + budget.minus(REPORT).toNanos();
  }

  /** Time since the run began. */
  Duration elapsed() {
    return Duration.ofNanos(nanoTime.getAsLong() - began);
  }

  /** What is left of the budget (zero once spent). */
  Duration budgetLeft() {
    Duration left = budget.minus(elapsed());
    return left.isNegative() ? Duration.ZERO : left;
  }

  /**
   * Whether a trial as long as the longest so far (the estimate before any; a noisy machine makes
   * them vary) still ends within the budget, with {@link #REPORT} left over for the reports.
   */
  boolean fits() {
    Duration longest = trials == 0 ? estimate : Duration.ofNanos(longestNs);
    return longest.plus(REPORT).compareTo(budgetLeft()) <= 0;
  }

  /**
   * Whether {@code n} more trials, each as long as the longest so far, still end within the budget
   * with {@link #REPORT} left (false before any trial): a round that starts must end, or the arms
   * would end up with unequal numbers of trials.
   */
  boolean fitsRound(int n) {
    if (trials == 0 || n < 1) {
      return false;
    }
    return Duration.ofNanos(longestNs * n).plus(REPORT).compareTo(budgetLeft()) <= 0;
  }

  /** {@code "~2m10s to go, 3m40s of 8m00s left"} with {@code trials} still to run. */
  String left(int trials) {
    Duration toGo = perTrial().multipliedBy(trials);
    return "~"
        + LoadTest.human(toGo.compareTo(budgetLeft()) < 0 ? toGo : budgetLeft())
        + " to go, "
        + LoadTest.human(budgetLeft())
        + " of the "
        + LoadTest.human(budget)
        + " budget left";
  }

  /** The budget. */
  Duration budget() {
    return budget;
  }
}
