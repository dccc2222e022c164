package io.github.affinitykit.core.host;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuTopology;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The CPUs worth handing out to pinned threads, the CPUs left for everything else, and why.
 *
 * <p>Thread safety: immutable.
 *
 * @param cpus the CPUs pinned threads may be given, in the order of {@link #order(CpuTopology)}
 * @param housekeeping the CPUs kept for the OS, GC, JIT and unpinned threads; none of the pool's
 * @param source how the pool was chosen
 * @param reason one sentence a person can act on
 */
public record CpuPool(CpuSet cpus, CpuSet housekeeping, Source source, String reason) {
  /** How a pool was chosen. */
  public enum Source {
    /** Isolated CPUs this process can reach: exclusive cores first. */
    ISOLATED,
    /** No isolation: every reachable CPU except the housekeeping core. */
    ALL_BUT_HOUSEKEEPING,
    /** Nothing can be pinned (a single core, or nothing reachable). */
    EMPTY,
    /** Named by the user: builder, {@code -Daffinitykit.pool} or {@code AFFINITYKIT_POOL}. */
    OVERRIDE
  }

  /**
   * Validates.
   *
   * @param cpus the CPUs pinned threads may be given, possibly empty; not null
   * @param housekeeping the CPUs kept for everything else, disjoint from {@code cpus}; not null
   * @param source how the pool was chosen; not null
   * @param reason one sentence a person can act on; not null
   * @throws IllegalArgumentException if a CPU is both in the pool and kept for housekeeping
   */
  public CpuPool {
    Objects.requireNonNull(cpus, "cpus");
    Objects.requireNonNull(housekeeping, "housekeeping");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(reason, "reason");
    if (cpus.intersects(housekeeping)) {
      throw new IllegalArgumentException(
          "housekeeping: " + housekeeping + " (expected: no CPU of the pool " + cpus + ")");
    }
  }

  /**
   * {@return the pool's CPUs in a group's order of preference} Those on cores wholly inside the
   * pool first, then the rest, each ascending.
   *
   * @param topology the host's topology; it must know every CPU of the pool
   */
  public List<Integer> order(CpuTopology topology) {
    List<Integer> whole = new ArrayList<>();
    List<Integer> shared = new ArrayList<>();
    for (int c = cpus.first(); c >= 0; c = cpus.next(c + 1)) {
      (cpus.containsAll(topology.cpu(c).core()) ? whole : shared).add(c);
    }
    whole.addAll(shared);
    return List.copyOf(whole);
  }

  /** {@return true if {@code cpus} is empty, whatever {@code housekeeping} holds} */
  public boolean isEmpty() {
    return cpus.isEmpty();
  }
}
