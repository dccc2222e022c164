package io.github.affinitykit.core.placement;

import io.github.affinitykit.core.CpuSet;
import java.util.List;
import java.util.Objects;

/**
 * The CPUs a {@link Planner} chose for threads 0..n-1, with the placement that chose each.
 *
 * <p>Thread safety: immutable.
 *
 * @param slots one per thread, in thread order
 */
public record Plan(List<Slot> slots) {
  /**
   * Thread {@code index}'s CPU.
   *
   * @param index the thread's index
   * @param cpu the CPU, or -1 when the pool ran out
   * @param reason which placement chose it, or why there was none
   */
  public record Slot(int index, int cpu, String reason) {
    /** Validates. */
    public Slot {
      Objects.requireNonNull(reason, "reason");
    }

    /** Returns whether a CPU was found. */
    public boolean placed() {
      return cpu >= 0;
    }
  }

  /** Copies. */
  public Plan {
    slots = List.copyOf(slots);
  }

  /** Returns the CPUs of the placed slots. */
  public CpuSet cpus() {
    return CpuSet.of(slots.stream().filter(Slot::placed).mapToInt(Slot::cpu).toArray());
  }

  /** Returns thread {@code index}'s CPU, or -1 when none was found. */
  public int cpu(int index) {
    return slots.get(index).cpu();
  }
}
