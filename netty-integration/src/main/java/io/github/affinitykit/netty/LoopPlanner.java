package io.github.affinitykit.netty;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.Plan;
import io.github.affinitykit.core.Planner;
import io.github.affinitykit.core.Reservation;
import io.github.affinitykit.core.ReservationResult;
import io.github.affinitykit.core.RunOutPolicy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Plans and reserves the CPUs of one group's loops, all at once, before any loop starts: the
 * reservations are then held for the group's life, so that a loop resumed on a new thread finds its
 * CPU still its own.
 *
 * <p>Thread safety: stateless; each call works on its own data.
 */
final class LoopPlanner {
  private LoopPlanner() {}

  /**
   * Plans {@code loops} slots for group {@code name}.
   *
   * @throws IllegalArgumentException if explicit CPUs or the pool name CPUs this process may not
   *     use, or the number of explicit CPUs is not {@code loops}
   * @throws IllegalStateException if a loop gets no CPU and the run-out policy is FAIL
   */
  static List<LoopSlot> plan(String name, int loops, PinningSpec spec) {
    if (loops <= 0) {
      throw new IllegalArgumentException(name + ": loops: " + loops + " (expected: > 0)");
    }
    if (!spec.enabled()) {
      return fill(loops, i -> LoopSlot.unpinned(i, CpuSet.empty(), LeaseStatus.UNPINNED, "off"));
    }
    AffinityKit kit = spec.kit();
    if (!kit.backend().isSupported()) {
      String why = kit.backend().reason();
      return fill(loops, i -> LoopSlot.unpinned(i, CpuSet.empty(), LeaseStatus.UNSUPPORTED, why));
    }
    CpuSet unpinned = spec.unpinnedMask().orElse(kit.host().reachable());
    if (spec.unpinnedBecause().isPresent()) {
      String why = spec.unpinnedBecause().get();
      return fill(loops, i -> LoopSlot.unpinned(i, unpinned, LeaseStatus.UNPINNED, why));
    }
    return spec.cpus().isEmpty()
        ? planned(kit, name, loops, spec, unpinned)
        : explicit(kit, name, loops, spec, unpinned);
  }

  private interface SlotMaker {
    LoopSlot make(int index);
  }

  private static List<LoopSlot> fill(int loops, SlotMaker maker) {
    List<LoopSlot> out = new ArrayList<>();
    for (int i = 0; i < loops; i++) {
      out.add(maker.make(i));
    }
    return out;
  }

  private static List<LoopSlot> explicit(
      AffinityKit kit, String name, int loops, PinningSpec spec, CpuSet unpinned) {
    List<Integer> cpus = spec.cpus();
    CpuSet named = CpuSet.of(cpus.stream().mapToInt(Integer::intValue).toArray());
    if (cpus.size() != loops || !kit.host().reachable().containsAll(named)) {
      throw new IllegalArgumentException(
          name
              + ": cpus: "
              + cpus
              + " (expected: "
              + loops
              + " CPUs, one per loop, among the CPUs this process may use: "
              + kit.host().reachable()
              + ")");
    }
    Map<Integer, ReservationResult> taken = new HashMap<>();
    List<LoopSlot> out = new ArrayList<>();
    for (int i = 0; i < loops; i++) {
      int cpu = cpus.get(i);
      boolean shared = taken.containsKey(cpu);
      ReservationResult r = taken.computeIfAbsent(cpu, c -> kit.reservations().tryReserve(c));
      if (r.isReserved()) {
        LeaseStatus status = shared ? LeaseStatus.SHARED : LeaseStatus.PINNED;
        String why = shared ? "explicit cpu " + cpu + ", shared" : "explicit cpu " + cpu;
        out.add(new LoopSlot(i, cpu, r.reservation(), CpuSet.empty(), status, why));
      } else if (spec.runOut() == RunOutPolicy.FAIL) {
        release(out);
        throw new IllegalStateException(name + "-" + i + ": " + r.reason() + "; run-out FAIL");
      } else {
        out.add(LoopSlot.unpinned(i, unpinned, LeaseStatus.UNPINNED, r.reason()));
      }
    }
    return out;
  }

  private static List<LoopSlot> planned(
      AffinityKit kit, String name, int loops, PinningSpec spec, CpuSet unpinned) {
    CpuSet pool = spec.pool().orElse(kit.pool().cpus());
    if (!kit.host().reachable().containsAll(pool)) {
      throw new IllegalArgumentException(
          name
              + ": pool: "
              + pool
              + " (expected: CPUs this process may use: "
              + kit.host().reachable()
              + ")");
    }
    Planner planner = new Planner(kit.host().topology());
    CpuSet busy = kit.reservations().reservedHere().intersect(pool);
    StringBuilder refused = new StringBuilder();
    while (true) {
      Plan plan = planner.plan(loops, pool, busy, spec.placements());
      Map<Integer, Reservation> got = new HashMap<>();
      int failed = -1;
      for (int c : plan.cpus().toArray()) {
        ReservationResult r = kit.reservations().tryReserve(c);
        if (!r.isReserved()) {
          failed = c;
          refused.append("; ").append(r.reason());
          break;
        }
        got.put(c, r.orElseThrow());
      }
      if (failed < 0) {
        return slots(name, plan, got, spec, unpinned, pool, refused.toString());
      }
      got.values().forEach(Reservation::close);
      busy = busy.union(CpuSet.of(failed));
    }
  }

  private static List<LoopSlot> slots(
      String name,
      Plan plan,
      Map<Integer, Reservation> got,
      PinningSpec spec,
      CpuSet unpinned,
      CpuSet pool,
      String refused) {
    List<LoopSlot> out = new ArrayList<>();
    List<LoopSlot> placed = new ArrayList<>();
    for (Plan.Slot s : plan.slots()) {
      int i = s.index();
      if (s.placed()) {
        LoopSlot slot =
            new LoopSlot(
                i,
                s.cpu(),
                Optional.of(got.get(s.cpu())),
                CpuSet.empty(),
                LeaseStatus.PINNED,
                s.reason());
        placed.add(slot);
        out.add(slot);
        continue;
      }
      String why =
          "no CPU of pool "
              + pool
              + " left for "
              + name
              + "-"
              + i
              + " ("
              + s.reason()
              + refused
              + ")";
      if (spec.runOut() == RunOutPolicy.FAIL) {
        got.values().forEach(Reservation::close);
        throw new IllegalStateException(why + "; run-out policy FAIL");
      }
      if (spec.runOut() == RunOutPolicy.SHARE && !placed.isEmpty()) {
        LoopSlot host = placed.get(i % placed.size());
        out.add(
            new LoopSlot(
                i,
                host.cpu(),
                host.reservation(),
                CpuSet.empty(),
                LeaseStatus.SHARED,
                "shares cpu "
                    + host.cpu()
                    + " with "
                    + name
                    + "-"
                    + host.index()
                    + " (run-out SHARE)"));
      } else {
        out.add(LoopSlot.unpinned(i, unpinned, LeaseStatus.UNPINNED, why));
      }
    }
    return out;
  }

  /** Closes every distinct reservation of {@code slots}. */
  static void release(List<LoopSlot> slots) {
    slots.forEach(s -> s.reservation().ifPresent(Reservation::close));
  }
}
