package io.github.affinitykit.bench;

import io.github.affinitykit.core.cpu.CpuInfo;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuTopology;

/**
 * Picks two CPUs of a set with a given relation on the real topology.
 *
 * <p>Thread safety: stateless.
 */
final class CpuPairs {
  private CpuPairs() {}

  /**
   * Returns {@code {a, b}} for {@code relation} = {@code SAME_CORE}, {@code DIFFERENT_CORE} (same
   * package) or {@code DIFFERENT_SOCKET}.
   *
   * @throws IllegalStateException naming what the host lacks when no such pair exists
   */
  static int[] pick(CpuTopology t, CpuSet cpus, String relation) {
    for (int a = cpus.first(); a >= 0; a = cpus.next(a + 1)) {
      for (int b = cpus.next(a + 1); b >= 0; b = cpus.next(b + 1)) {
        CpuInfo x = t.cpu(a);
        CpuInfo y = t.cpu(b);
        boolean sameCore = x.core().contains(b);
        boolean samePackage = x.packageId() == y.packageId();
        boolean fits =
            switch (relation) {
              case "SAME_CORE" -> sameCore;
              case "DIFFERENT_CORE" -> !sameCore && samePackage;
              case "DIFFERENT_SOCKET" -> !samePackage;
              default ->
                  throw new IllegalArgumentException(
                      "relation: "
                          + relation
                          + " (expected: SAME_CORE, DIFFERENT_CORE, DIFFERENT_SOCKET)");
            };
        if (fits) {
          return new int[] {a, b};
        }
      }
    }
    throw new IllegalStateException(
        relation + ": no such CPU pair among " + cpus + " on this host (" + t + ")");
  }
}
