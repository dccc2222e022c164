package io.github.affinitykit.disruptor;

import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.placement.Plan;
import java.util.List;
import java.util.Objects;

/**
 * Where a Disruptor's threads are planned to run: the producer (slot 0 when it is pinned) and each
 * consumer, in the order the Disruptor creates their threads. A CPU of {@code -1} means unpinned; a
 * CPU may appear more than once when the pool ran out and threads share it.
 *
 * <p>Thread safety: immutable.
 *
 * @param pinning what is pinned
 * @param pool the CPUs the plan drew from
 * @param producer the producer's slot (cpu -1 unless {@code pinning} is {@link Pinning#ALL})
 * @param consumers one slot per consumer thread
 */
public record Layout(Pinning pinning, CpuSet pool, Plan.Slot producer, List<Plan.Slot> consumers) {
  /** Validates and copies. */
  public Layout {
    Objects.requireNonNull(pinning, "pinning");
    Objects.requireNonNull(pool, "pool");
    Objects.requireNonNull(producer, "producer");
    consumers = List.copyOf(consumers);
    if (consumers.isEmpty()) {
      throw new IllegalArgumentException("consumers: [] (expected: at least one consumer)");
    }
  }

  /** Returns consumer {@code index}'s CPU, or -1 when it is unpinned. */
  public int consumerCpu(int index) {
    return consumers.get(index).cpu();
  }

  /** Returns the CPUs of the pinned consumers. */
  public CpuSet consumerCpus() {
    return CpuSet.of(consumers.stream().mapToInt(Plan.Slot::cpu).filter(c -> c >= 0).toArray());
  }

  /** Returns every pinned CPU: the consumers' and the producer's. */
  public CpuSet cpus() {
    return producer.placed() ? consumerCpus().union(CpuSet.of(producer.cpu())) : consumerCpus();
  }
}
