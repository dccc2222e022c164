package io.github.affinitykit.latency;

import io.github.affinitykit.core.cpu.CpuSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Chooses the CPUs of a pool with the lowest handoff latency between them, for a group whose
 * members hand work to each other (a producer and its consumers, event loops that pass messages).
 *
 * <p><b>Objective.</b> Of the sets of {@code n} CPUs of the pool, the one whose worst pair latency
 * ({@link LatencyMatrix#pairNs}) is least; among those, the one whose mean pair latency is least;
 * among those, the first in ascending order of CPU ids. Latencies compare in whole picoseconds. The
 * search is exact while the pool has at most 1,000,000 sets of {@code n} (any {@code n} of 20 CPUs;
 * up to 4 of 64; 2 of 1,000); beyond, it is greedy: grown from each CPU in turn by adding the CPU
 * that raises the worst, then the summed, latency least, the best set so grown kept. On the chiplet
 * and two-socket matrices of its tests the greedy choice stays within a CCX, CCD or socket while
 * one holds {@code n}.
 *
 * <p>Simultaneous-multithreading siblings share a core and usually show the lowest latency of all:
 * where members spin, give a pool of one CPU per core.
 *
 * <pre>{@code
 * LatencyChoice choice = LatencyPlacement.choose(matrix, kit.pool().cpus(), 3);
 * CpuGroup pipeline = kit.group("pipeline").cpus(choice.cpus()).build();
 * System.out.print(choice.report());
 * }</pre>
 *
 * <p>Thread safety: stateless; safe from any thread.
 */
public final class LatencyPlacement {
  private LatencyPlacement() {}

  /**
   * Chooses {@code n} CPUs of {@code pool} by the objective above.
   *
   * @param matrix the measured latencies; it must hold every CPU of {@code pool}
   * @param pool the CPUs to choose from: the free CPUs of the kit's pool, at least one
   * @param n how many CPUs: the group's members, 1 to the pool's size
   * @return the choice, with the pool's matrix and the pool's lowest ids it beat
   * @throws IllegalArgumentException if {@code pool} is empty or has a CPU the matrix lacks, or
   *     {@code n} is out of range
   */
  public static LatencyChoice choose(LatencyMatrix matrix, CpuSet pool, int n) {
    Objects.requireNonNull(matrix, "matrix");
    matrix.requireAll(pool, "pool");
    if (n < 1 || n > pool.size()) {
      throw new IllegalArgumentException(
          "n: " + n + " (expected: 1 to " + pool.size() + ", the CPUs of the pool " + pool + ")");
    }
    LatencyMatrix restricted = matrix.restrict(pool);
    int[] ids = pool.toArray();
    long[][] cost = new long[ids.length][ids.length];
    for (int r = 0; r < ids.length; r++) {
      for (int c = 0; c < ids.length; c++) {
        cost[r][c] = r == c ? 0 : Math.max(1, Math.round(restricted.pair(r, c) * 1000));
      }
    }
    int[] best = SubsetSearch.best(cost, n);
    int[] chosen = new int[n];
    for (int i = 0; i < n; i++) {
      chosen[i] = ids[best[i]];
    }
    return new LatencyChoice(
        restricted,
        candidate(restricted, CpuSet.of(chosen)),
        candidate(restricted, CpuSet.of(java.util.Arrays.copyOf(ids, n))),
        SubsetSearch.subsets(ids.length, n) <= SubsetSearch.EXACT_LIMIT);
  }

  private static LatencyChoice.Candidate candidate(LatencyMatrix m, CpuSet cpus) {
    int[] ids = cpus.toArray();
    double worst = 0;
    double sum = 0;
    double[] worstTo = new double[ids.length];
    double[] sumTo = new double[ids.length];
    for (int a = 0; a < ids.length; a++) {
      for (int b = 0; b < ids.length; b++) {
        double ns = m.pairNs(ids[a], ids[b]);
        worstTo[a] = Math.max(worstTo[a], ns);
        sumTo[a] += ns;
        if (b > a) {
          worst = Math.max(worst, ns);
          sum += ns;
        }
      }
    }
    int hub = 0;
    for (int a = 1; a < ids.length; a++) {
      if (worstTo[a] < worstTo[hub] || (worstTo[a] == worstTo[hub] && sumTo[a] < sumTo[hub])) {
        hub = a;
      }
    }
    int first = ids[hub];
    List<Integer> order = new ArrayList<>();
    cpus.forEach(order::add);
    order.remove(Integer.valueOf(first));
    order.sort(Comparator.comparingDouble((Integer c) -> m.pairNs(first, c)).thenComparing(c -> c));
    order.add(0, first);
    int pairs = ids.length * (ids.length - 1) / 2;
    return new LatencyChoice.Candidate(cpus, order, worst, pairs == 0 ? 0 : sum / pairs);
  }
}
