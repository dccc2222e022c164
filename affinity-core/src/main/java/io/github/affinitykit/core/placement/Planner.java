package io.github.affinitykit.core.placement;

import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.host.CpuTopology;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Chooses CPUs for a group of threads, deterministically: the same topology, pool, busy set and
 * request always give the same plan.
 *
 * <p>The first thread takes the lowest free CPU of the pool, preferring a CPU whose whole physical
 * core is in the pool and free, then one whose core is free: a core shared with CPUs outside the
 * pool (an isolated hyper-thread whose sibling is a housekeeping CPU) comes last, because general
 * work runs on its other half. Each later thread tries the placements in order, relative to the
 * thread before it (as OpenHFT's {@code AffinityThreadFactory} does), and takes the lowest matching
 * free CPU by the same preference. When no placement matches, the slot is left unplaced (cpu -1)
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
      Plan.Slot slot = next(i, pool, free, busy, assigned, previous, order);
      slots.add(slot);
      if (slot.placed()) {
        assigned = assigned.union(CpuSet.of(slot.cpu()));
        previous = slot.cpu();
      }
    }
    return new Plan(slots);
  }

  /**
   * Places one more thread: {@code free} are the candidates (drawn from {@code pool}), {@code
   * assigned} the CPUs this group already has, {@code previous} the CPU of the thread before (-1
   * for the first).
   */
  public Plan.Slot next(
      int i,
      CpuSet pool,
      CpuSet free,
      CpuSet busy,
      CpuSet assigned,
      int previous,
      List<Placement> order) {
    if (free.isEmpty()) {
      return new Plan.Slot(i, -1, "pool exhausted: every CPU is taken");
    }
    if (previous < 0) {
      return new Plan.Slot(i, pick(pool, free, busy.union(assigned)), "first free CPU");
    }
    for (Placement p : order) {
      CpuSet matching = CpuSet.empty();
      for (int c = free.first(); c >= 0; c = free.next(c + 1)) {
        if (p.matches(topology, c, previous, assigned)) {
          matching = matching.union(CpuSet.of(c));
        }
      }
      if (!matching.isEmpty()) {
        return new Plan.Slot(i, pick(pool, matching, busy.union(assigned)), p.name());
      }
    }
    return new Plan.Slot(
        i, -1, "no free CPU of " + free + " matches " + order + " after CPU " + previous);
  }

  /**
   * The lowest candidate on a core wholly in {@code pool} with no used CPU, else the lowest on a
   * core with no used CPU, else the lowest candidate.
   */
  private int pick(CpuSet pool, CpuSet candidates, CpuSet used) {
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

  /**
   * Returns {@code pool}'s CPUs in the order a group of threads takes them when nothing else is
   * reserved: CPUs on cores wholly inside the pool first, then CPUs whose core-mates are outside
   * it, each ascending.
   */
  public List<Integer> order(CpuSet pool) {
    List<Integer> whole = new ArrayList<>();
    List<Integer> shared = new ArrayList<>();
    for (int c = pool.first(); c >= 0; c = pool.next(c + 1)) {
      (pool.containsAll(topology.cpu(c).core()) ? whole : shared).add(c);
    }
    whole.addAll(shared);
    return List.copyOf(whole);
  }
}
