package io.github.affinitykit.disruptor;

import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.CpuTopology;
import io.github.affinitykit.core.Placement;
import io.github.affinitykit.core.Plan;
import io.github.affinitykit.core.Planner;
import io.github.affinitykit.core.RunOutPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Plans a Disruptor's {@link Layout} with affinity-core's {@link Planner}, deterministically: the
 * same topology, pool, busy CPUs and request always give the same layout.
 *
 * <p>With {@link Pinning#ALL} the producer is planned first, so it gets a core of its own whenever
 * the pool has one, and the consumers follow by {@code placements} (default {@code DIFFERENT_CORE,
 * ANY}: distinct physical cores first). Threads left without a free CPU follow the run-out policy:
 * {@link RunOutPolicy#SHARE} puts each on the least-loaded CPU already planned (lowest id on a tie,
 * the producer's included); {@link RunOutPolicy#UNPINNED} leaves it unpinned; {@link
 * RunOutPolicy#FAIL} throws.
 *
 * <p>Thread safety: immutable; {@link #plan} may be called from any thread.
 */
public final class LayoutPlanner {
  /** The default placements: a physical core per thread while there are free cores, then any. */
  public static final List<Placement> DEFAULT_PLACEMENTS =
      List.of(Placement.DIFFERENT_CORE, Placement.ANY);

  private final Planner planner;

  /** Creates a planner for {@code topology}. */
  public LayoutPlanner(CpuTopology topology) {
    this.planner = new Planner(Objects.requireNonNull(topology, "topology"));
  }

  /**
   * Plans {@code consumers} consumer threads (and the producer when {@code pinning} is {@link
   * Pinning#ALL}) on {@code pool}, avoiding {@code busy}.
   *
   * @throws IllegalArgumentException if {@code consumers < 1} or the pool is not in the topology
   * @throws IllegalStateException if a thread finds no CPU and {@code runOut} is {@link
   *     RunOutPolicy#FAIL}
   */
  public Layout plan(
      Pinning pinning,
      int consumers,
      CpuSet pool,
      CpuSet busy,
      List<Placement> placements,
      RunOutPolicy runOut) {
    Objects.requireNonNull(pinning, "pinning");
    Objects.requireNonNull(runOut, "runOut");
    if (consumers < 1) {
      throw new IllegalArgumentException("consumers: " + consumers + " (expected: >= 1)");
    }
    int first = pinning == Pinning.ALL ? 0 : 1;
    List<Plan.Slot> slots = new ArrayList<>();
    if (pinning == Pinning.NONE) {
      for (int i = 0; i <= consumers; i++) {
        slots.add(new Plan.Slot(i, -1, "pinning NONE"));
      }
    } else {
      Plan plan = planner.plan(consumers + 1 - first, pool, busy, placements);
      if (first == 1) {
        slots.add(new Plan.Slot(0, -1, "pinning CONSUMERS"));
      }
      for (Plan.Slot s : plan.slots()) {
        slots.add(new Plan.Slot(s.index() + first, s.cpu(), s.reason()));
      }
      slots = runOut(slots, first, pool, runOut);
    }
    return new Layout(pinning, pool, slots.get(0), slots.subList(1, slots.size()));
  }

  private static List<Plan.Slot> runOut(
      List<Plan.Slot> slots, int first, CpuSet pool, RunOutPolicy runOut) {
    Map<Integer, Integer> load = new TreeMap<>();
    slots.stream().filter(Plan.Slot::placed).forEach(s -> load.merge(s.cpu(), 1, Integer::sum));
    List<Plan.Slot> out = new ArrayList<>();
    for (Plan.Slot s : slots) {
      if (s.placed() || s.index() < first) {
        out.add(s);
        continue;
      }
      String who = s.index() == 0 ? "producer" : "consumer-" + (s.index() - 1);
      if (runOut == RunOutPolicy.FAIL) {
        throw new IllegalStateException(
            who + ": no CPU of pool " + pool + " left (" + s.reason() + "); run-out policy FAIL");
      }
      if (runOut == RunOutPolicy.UNPINNED || load.isEmpty()) {
        out.add(new Plan.Slot(s.index(), -1, "unpinned: " + s.reason()));
        continue;
      }
      int cpu = leastLoaded(load);
      load.merge(cpu, 1, Integer::sum);
      out.add(new Plan.Slot(s.index(), cpu, "shares cpu " + cpu + " (run-out policy SHARE)"));
    }
    return out;
  }

  private static int leastLoaded(Map<Integer, Integer> load) {
    int best = -1;
    for (Map.Entry<Integer, Integer> e : load.entrySet()) {
      if (best < 0 || e.getValue() < load.get(best)) {
        best = e.getKey();
      }
    }
    return best;
  }
}
