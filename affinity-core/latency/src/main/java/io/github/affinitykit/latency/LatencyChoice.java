package io.github.affinitykit.latency;

import io.github.affinitykit.core.cpu.CpuSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The CPUs {@link LatencyPlacement} chose for a group, with what it chose from and what it beat.
 *
 * <p>Thread safety: immutable.
 *
 * @param matrix the latency matrix of the pool it chose from
 * @param chosen the chosen CPUs, their worst and mean pair latency
 * @param alternative the pool's lowest CPU ids, as many: what a planner drawing CPUs in ascending
 *     order would take, with its worst and mean pair latency
 * @param exact true if every set of that many CPUs of the pool was compared; false if the greedy
 *     search chose (more than {@code 1,000,000} sets)
 */
public record LatencyChoice(
    LatencyMatrix matrix, Candidate chosen, Candidate alternative, boolean exact) {

  /**
   * A set of CPUs and its pair latencies.
   *
   * @param cpus the CPUs
   * @param order the CPUs in members' order: first the one whose worst latency to the others is
   *     least (a producer's seat), then the others by their latency from it, ties by lower id
   * @param worstNs the largest latency of a pair of them, 0 for one CPU
   * @param meanNs the mean latency of their pairs, 0 for one CPU
   */
  public record Candidate(CpuSet cpus, List<Integer> order, double worstNs, double meanNs) {
    /**
     * Checks the parts.
     *
     * @param cpus the CPUs; not null
     * @param order the same CPUs in members' order; copied
     * @param worstNs the worst pair latency
     * @param meanNs the mean pair latency
     */
    public Candidate {
      Objects.requireNonNull(cpus, "cpus");
      order = List.copyOf(order);
    }

    /** {@return the CPUs, their worst and mean pair latency} */
    @Override
    public String toString() {
      return String.format(
          Locale.ROOT, "%s: worst %.1f ns, mean %.1f ns a pair", cpus, worstNs, meanNs);
    }
  }

  /**
   * Checks the parts.
   *
   * @param matrix the pool's matrix; not null
   * @param chosen the choice; not null
   * @param alternative the lowest ids; not null
   * @param exact whether every set was compared
   */
  public LatencyChoice {
    Objects.requireNonNull(matrix, "matrix");
    Objects.requireNonNull(chosen, "chosen");
    Objects.requireNonNull(alternative, "alternative");
  }

  /**
   * Returns the chosen CPUs in members' order, for {@code kit.group(name).cpus(choice.cpus())}:
   * member 0 (a producer, the loop others hand off to) takes the first.
   *
   * @return a new array of the chosen CPUs, in {@link Candidate#order()}
   */
  public int[] cpus() {
    return chosen.order().stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * Returns the report: the choice, what it beat, how it was searched, and the pool's matrix with
   * the chosen CPUs starred.
   *
   * @return lines separated by {@code \n}, ending with one
   */
  public String report() {
    int n = chosen.cpus().size();
    return "latency placement of "
        + n
        + (n == 1 ? " CPU among " : " CPUs among ")
        + matrix.cpus()
        + (exact ? " (every set compared)" : " (greedy: too many sets to compare all)")
        + "\n  chosen  "
        + chosen
        + ", members in order "
        + chosen.order()
        + "\n  instead "
        + alternative
        + " (the pool's lowest ids)\n"
        + matrix.table(chosen.cpus());
  }
}
