package io.github.affinitykit.core;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.reservation.Reservation;
import io.github.affinitykit.core.reservation.ReservationResult;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The CPUs one {@link CpuGroup} holds: each CPU's reservation and how many of its open seats are on
 * it (a CPU is freed when the last leaves), and the last refusal of each CPU it could not get.
 *
 * <p>Thread safety: not thread-safe; its group uses it under the group's monitor.
 */
final class GroupCpus {
  private final Map<Integer, Reservation> held = new TreeMap<>();
  private final Map<Integer, Integer> load = new TreeMap<>();
  private final Map<Integer, ReservationResult> refused = new TreeMap<>();

  /** A seat takes {@code r}'s CPU alone. */
  void take(Reservation r) {
    held.put(r.cpu(), r);
    load.put(r.cpu(), 1);
    refused.remove(r.cpu());
  }

  /** Whether the group holds {@code cpu}: then {@link #share} seats another member there. */
  boolean holds(int cpu) {
    return held.containsKey(cpu);
  }

  /** One more seat on {@code cpu}, which the group holds. */
  void share(int cpu) {
    load.merge(cpu, 1, Integer::sum);
  }

  /** Whether exactly one open seat is on {@code cpu}. */
  boolean alone(int cpu) {
    return load.getOrDefault(cpu, 0) == 1;
  }

  /** The held CPU with the fewest seats (the lowest of those), or -1 when none is held. */
  int leastLoaded() {
    int cpu = -1;
    for (Map.Entry<Integer, Integer> e : load.entrySet()) {
      if (cpu < 0 || e.getValue() < load.get(cpu)) {
        cpu = e.getKey();
      }
    }
    return cpu;
  }

  /** A seat on {@code cpu} left: the CPU is freed once no seat is on it. */
  void leave(int cpu) {
    if (cpu >= 0 && load.merge(cpu, -1, Integer::sum) == 0) {
      load.remove(cpu);
      held.remove(cpu).close();
    }
  }

  void refuse(ReservationResult r) {
    refused.put(r.cpu(), r);
  }

  Optional<Reservation> reservation(int cpu) {
    return Optional.ofNullable(held.get(cpu));
  }

  /** The CPUs reserved, each once; a whole core's idle ones too. */
  CpuSet cpus() {
    return held.values().stream().map(Reservation::cpus).reduce(CpuSet.empty(), CpuSet::union);
  }

  /** How many CPUs are held (a whole core counts once). */
  int size() {
    return held.size();
  }

  Map<Integer, ReservationResult> refused() {
    return Map.copyOf(refused);
  }
}
