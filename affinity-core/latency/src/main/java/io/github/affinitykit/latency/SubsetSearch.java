package io.github.affinitykit.latency;

import java.util.Arrays;

/**
 * The search behind {@link LatencyPlacement}: the {@code n} of {@code m} CPUs whose worst pair
 * costs least, ties by the sum of all pairs, then by the lowest CPUs (the first set in ascending
 * order). Costs are whole picoseconds, at least 1 a pair, so equal costs compare equal. Exact (a
 * depth-first walk in ascending order, cutting every branch that cannot beat the best so far) when
 * there are at most {@link #EXACT_LIMIT} sets; beyond, greedy: from each CPU in turn, add the CPU
 * whose worst and then summed cost to those taken is least, and keep the best set so grown.
 *
 * <p>Thread safety: stateless; each call owns its arrays.
 */
final class SubsetSearch {
  /** The most sets of {@code n} compared exactly. */
  static final long EXACT_LIMIT = 1_000_000;

  private final long[][] cost;
  private final int n;
  private final int[] current;
  private int[] best;
  private long bestMax;
  private long bestSum;

  private SubsetSearch(long[][] cost, int n) {
    this.cost = cost;
    this.n = n;
    this.current = new int[n];
  }

  /** {@return how many sets of {@code n} of {@code m} there are, or EXACT_LIMIT + 1 if more} */
  static long subsets(int m, int n) {
    int k = Math.min(n, m - n);
    long c = 1;
    for (int i = 1; i <= k; i++) {
      c = c * (m - k + i) / i;
      if (c > EXACT_LIMIT) {
        return EXACT_LIMIT + 1;
      }
    }
    return c;
  }

  /** The best set's indices, ascending: exact up to {@link #EXACT_LIMIT} sets, else greedy. */
  static int[] best(long[][] cost, int n) {
    return subsets(cost.length, n) <= EXACT_LIMIT ? exact(cost, n) : greedy(cost, n);
  }

  /** The best set's indices by the exact walk, however many sets there are. */
  static int[] exact(long[][] cost, int n) {
    SubsetSearch search = new SubsetSearch(cost, n);
    search.walk(0, 0, 0, 0);
    return search.best;
  }

  /** The best set's indices as grown from each CPU. */
  static int[] greedy(long[][] cost, int n) {
    SubsetSearch search = new SubsetSearch(cost, n);
    search.grow();
    return search.best;
  }

  private void walk(int depth, int start, long max, long sum) {
    if (depth == n) {
      best = current.clone();
      bestMax = max;
      bestSum = sum;
      return;
    }
    for (int i = start; i <= cost.length - (n - depth); i++) {
      long newMax = max;
      long newSum = sum;
      for (int j = 0; j < depth; j++) {
        newMax = Math.max(newMax, cost[current[j]][i]);
        newSum += cost[current[j]][i];
      }
      // a set found earlier comes first in ascending order, so an equal one never replaces it
      if (best == null || newMax < bestMax || (newMax == bestMax && newSum < bestSum)) {
        current[depth] = i;
        walk(depth + 1, i + 1, newMax, newSum);
      }
    }
  }

  private void grow() {
    int m = cost.length;
    for (int seed = 0; seed < m; seed++) {
      boolean[] taken = new boolean[m];
      long[] maxTo = cost[seed].clone();
      long[] sumTo = cost[seed].clone();
      int[] set = new int[n];
      set[0] = seed;
      taken[seed] = true;
      long max = 0;
      long sum = 0;
      for (int size = 1; size < n; size++) {
        int pick = -1;
        for (int c = 0; c < m; c++) {
          if (!taken[c]
              && (pick < 0
                  || Math.max(max, maxTo[c]) < Math.max(max, maxTo[pick])
                  || (Math.max(max, maxTo[c]) == Math.max(max, maxTo[pick])
                      && sumTo[c] < sumTo[pick]))) {
            pick = c;
          }
        }
        max = Math.max(max, maxTo[pick]);
        sum += sumTo[pick];
        taken[pick] = true;
        set[size] = pick;
        for (int c = 0; c < m; c++) {
          maxTo[c] = Math.max(maxTo[c], cost[pick][c]);
          sumTo[c] += cost[pick][c];
        }
      }
      Arrays.sort(set);
      if (best == null
          || max < bestMax
          || (max == bestMax
              && (sum < bestSum || (sum == bestSum && Arrays.compare(set, best) < 0)))) {
        best = set;
        bestMax = max;
        bestSum = sum;
      }
    }
  }
}
