package io.github.affinitykit.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Chooses CPUs for a group of threads, deterministically: the same topology, pool, busy set and
 * request always give the same plan.
 *
 * <p>The first thread takes the lowest free CPU of the pool, preferring a CPU whose whole physical
 * core is free. Each later thread tries the placements in order, relative to the thread before it
 * (as OpenHFT's {@code AffinityThreadFactory} does), and takes the lowest matching free CPU, again
 * preferring CPUs on untouched cores. When no placement matches, the slot is left unplaced (cpu -1)
 * with the reason: the caller's run-out policy decides what happens.
 *
 * <p>Thread safety: immutable; {@link #plan} may be called from any thread.
 */
public final class Planner {
  private final CpuTopology topology;

  /** Creates a planner for {@code topology}. */
  public Planner(CpuTopology topology) {
    this.topology = Objects.requireNonNull(topology, "topology");
  }

  /**
   * Plans {@code threads} CPUs from {@code pool}, avoiding {@code busy} (CPUs reserved elsewhere).
   *
   * @param placements tried in order for every thread after the first; empty means {@link
   *     Placement#ANY}
   * @throws IllegalArgumentException if {@code threads} is negative or a pool CPU is not in the
   *     topology
   */
  public Plan plan(int threads, CpuSet pool, CpuSet busy, List<Placement> placements) {
    if (threads < 0) {
      throw new IllegalArgumentException("threads: " + threads + " (expected: >= 0)");
    }
    Objects.requireNonNull(busy, "busy");
    if (!topology.known().containsAll(pool)) {
      throw new IllegalArgumentException(
          "pool: "
              + pool
              + " (expected: CPUs of the topology "
              + topology.known()
              + "; unknown: "
              + pool.minus(topology.known())
              + ")");
    }
    List<Placement> order = placements.isEmpty() ? List.of(Placement.ANY) : List.copyOf(placements);
    List<Plan.Slot> slots = new ArrayList<>();
    CpuSet assigned = CpuSet.empty();
    int previous = -1;
    for (int i = 0; i < threads; i++) {
      CpuSet free = pool.minus(busy).minus(assigned);
      Plan.Slot slot = next(i, free, busy, assigned, previous, order);
      slots.add(slot);
      if (slot.placed()) {
        assigned = assigned.union(CpuSet.of(slot.cpu()));
        previous = slot.cpu();
      }
    }
    return new Plan(slots);
  }

  /**
   * Places one more thread: {@code free} are the candidates, {@code assigned} the CPUs this group
   * already has, {@code previous} the CPU of the thread before (-1 for the first).
   */
  Plan.Slot next(
      int i, CpuSet free, CpuSet busy, CpuSet assigned, int previous, List<Placement> order) {
    if (free.isEmpty()) {
      return new Plan.Slot(i, -1, "pool exhausted: every CPU is taken");
    }
    if (previous < 0) {
      return new Plan.Slot(i, pick(free, busy.union(assigned)), "first free CPU");
    }
    for (Placement p : order) {
      CpuSet matching = CpuSet.empty();
      for (int c = free.first(); c >= 0; c = free.next(c + 1)) {
        if (p.matches(topology, c, previous, assigned)) {
          matching = matching.union(CpuSet.of(c));
        }
      }
      if (!matching.isEmpty()) {
        return new Plan.Slot(i, pick(matching, busy.union(assigned)), p.name());
      }
    }
    return new Plan.Slot(
        i, -1, "no free CPU of " + free + " matches " + order + " after CPU " + previous);
  }

  /** The lowest candidate on a core with no used CPU, else the lowest candidate. */
  private int pick(CpuSet candidates, CpuSet used) {
    for (int c = candidates.first(); c >= 0; c = candidates.next(c + 1)) {
      if (!topology.cpu(c).core().intersects(used)) {
        return c;
      }
    }
    return candidates.first();
  }
}
