package io.github.affinitykit.core;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuTopology;
import io.github.affinitykit.core.placement.Placement;
import java.util.List;
import java.util.Objects;

/**
 * Chooses CPUs for one group of threads, deterministically. The first member takes the lowest free
 * CPU of the pool, preferring one whose whole core is in the pool and free, then one whose core is
 * free (a core shared with CPUs outside the pool runs general work on its other half). Each later
 * member tries the placements in order, relative to the member placed before it (as OpenHFT's
 * {@code AffinityThreadFactory} does), by the same preference. When none matches, {@link #next}
 * answers -1 and {@link #reason()} why. With whole cores, a candidate is the first CPU of a core
 * wholly in the pool and free.
 *
 * <p>Thread safety: not thread-safe; its group calls it under the group's lock.
 */
final class Planner {
  private final CpuTopology topology;
  private final CpuSet pool;
  private final List<Placement> placements;
  private final boolean wholeCores;
  private int previous = -1;
  private String reason = "nothing planned yet";

  /**
   * The planner of a group drawing from {@code pool}; every CPU of it must be in {@code topology}.
   */
  Planner(CpuTopology topology, CpuSet pool, List<Placement> placements, boolean wholeCores) {
    this.topology = Objects.requireNonNull(topology, "topology");
    this.pool = Objects.requireNonNull(pool, "pool");
    if (!topology.known().containsAll(pool)) {
      throw new IllegalArgumentException(
          String.format(
              "pool: %s (expected: CPUs of the topology %s; unknown: %s)",
              pool, topology.known(), pool.minus(topology.known())));
    }
    this.placements = placements.isEmpty() ? List.of(Placement.ANY) : List.copyOf(placements);
    this.wholeCores = wholeCores;
  }

  /**
   * Chooses the next member's CPU among the pool's CPUs neither {@code held} by the group nor
   * {@code refused} to this member: the CPU, or -1. It counts once {@link #placed} says so.
   */
  int next(CpuSet held, CpuSet refused) {
    CpuSet free = pool.minus(refused).minus(held);
    CpuSet used = refused.union(held);
    if (wholeCores) {
      CpuSet firsts = CpuSet.empty();
      for (int c = free.first(); c >= 0; c = free.next(c + 1)) {
        CpuSet core = topology.cpu(c).core();
        if (core.first() == c && free.containsAll(core)) {
          firsts = firsts.union(CpuSet.of(c));
        }
      }
      free = firsts;
    }
    if (free.isEmpty()) {
      String none = wholeCores ? "no whole core of the pool is free" : "every CPU is taken";
      return choose(-1, "pool exhausted: " + none);
    }
    if (previous < 0) {
      return choose(pick(free, used), "first free CPU");
    }
    for (Placement p : placements) {
      CpuSet matching = CpuSet.empty();
      for (int c = free.first(); c >= 0; c = free.next(c + 1)) {
        if (p.matches(topology, c, previous, held)) {
          matching = matching.union(CpuSet.of(c));
        }
      }
      if (!matching.isEmpty()) {
        return choose(pick(matching, used), p.name());
      }
    }
    return choose(
        -1, "no free CPU of " + free + " matches " + placements + " after CPU " + previous);
  }

  private int choose(int cpu, String why) {
    reason = why;
    return cpu;
  }

  /**
   * {@return why the last {@link #next} chose its CPU (the placement's name, or {@code first free
   * CPU}), or why it found none}
   */
  String reason() {
    return reason;
  }

  /** {@return the CPUs reserved with {@code cpu}: with whole cores its core's others, else none} */
  CpuSet siblings(int cpu) {
    return wholeCores ? topology.cpu(cpu).core().minus(CpuSet.of(cpu)) : CpuSet.empty();
  }

  /** {@return what a seat's reason adds for {@code cpu}: {@code ; whole core 0,4}, or nothing} */
  String wholeCore(int cpu) {
    CpuSet core = topology.cpu(cpu).core();
    String one = core.size() > 1 ? "" : " (one CPU: no SMT sibling)";
    return wholeCores ? "; whole core " + core + one : "";
  }

  /** Records that the member just planned got {@code cpu}: the next is placed after it. */
  void placed(int cpu) {
    previous = cpu;
  }

  /**
   * The lowest candidate on a core wholly in the pool with no used CPU, else the lowest on a core
   * with no used CPU, else the lowest candidate.
   */
  private int pick(CpuSet candidates, CpuSet used) {
    int untouched = -1;
    for (int c = candidates.first(); c >= 0; c = candidates.next(c + 1)) {
      CpuSet core = topology.cpu(c).core();
      if (!core.intersects(used)) {
        if (pool.containsAll(core)) {
          return c;
        }
        untouched = untouched < 0 ? c : untouched;
      }
    }
    return untouched >= 0 ? untouched : candidates.first();
  }
}
