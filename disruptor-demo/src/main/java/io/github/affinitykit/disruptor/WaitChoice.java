package io.github.affinitykit.disruptor;

import java.util.List;
import java.util.Objects;

/**
 * The wait strategy a Disruptor's consumers were given, why, and the placements it was decided
 * from: the answer to "why is this consumer spinning (or not)?".
 *
 * <p>Thread safety: immutable.
 *
 * @param strategy the strategy in use
 * @param placementChoice what the placement alone chose ({@link WaitAdvisor}); equals {@code
 *     strategy} unless overridden
 * @param overridden whether the user named the strategy
 * @param reason why placement chose {@code placementChoice}: the rule, with the CPUs that decided
 * @param producer where the producer runs
 * @param consumers where each consumer runs, in thread-creation order
 */
public record WaitChoice(
    WaitKind strategy,
    WaitKind placementChoice,
    boolean overridden,
    String reason,
    ThreadAssignment producer,
    List<ThreadAssignment> consumers) {
  /**
   * Validates and copies.
   *
   * @param strategy the strategy in use; not null
   * @param placementChoice what placement alone chose; {@code strategy} unless {@code overridden}
   * @param overridden whether the user named the strategy
   * @param reason why placement chose {@code placementChoice}; not null
   * @param producer where the producer runs; not null
   * @param consumers where each consumer runs, in thread-creation order; copied, no nulls
   */
  public WaitChoice {
    Objects.requireNonNull(strategy, "strategy");
    Objects.requireNonNull(placementChoice, "placementChoice");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(producer, "producer");
    consumers = List.copyOf(consumers);
    if (!overridden && strategy != placementChoice) {
      throw new IllegalArgumentException(
          "strategy: " + strategy + " (expected: " + placementChoice + " unless overridden)");
    }
  }

  /**
   * Returns this choice with {@code strategy} named by the user instead.
   *
   * @param strategy the strategy the user named, even if it is the placement's own; not null
   * @return a new choice marked overridden; placement's choice, reason and threads are kept
   */
  public WaitChoice overriddenBy(WaitKind strategy) {
    return new WaitChoice(strategy, placementChoice, true, reason, producer, consumers);
  }

  /**
   * Returns one line: the strategy, and what placement chose and why.
   *
   * @return {@code <strategy>: <reason>}, or when overridden, what placement would have chosen
   */
  public String headline() {
    return overridden
        ? strategy
            + " (overridden by the user; placement would choose "
            + placementChoice
            + ": "
            + reason
            + ")"
        : strategy + ": " + reason;
  }

  /**
   * Returns a few lines for people: the strategy and reason, then one line per thread.
   *
   * @return the headline, the producer, then each consumer, every line ending in {@code \n}
   */
  public String describe() {
    StringBuilder sb = new StringBuilder(headline()).append('\n');
    sb.append("  ").append(producer).append('\n');
    consumers.forEach(c -> sb.append("  ").append(c).append('\n'));
    return sb.toString();
  }
}
