package io.github.affinitykit.disruptor;

import io.github.affinitykit.core.Assignment;
import io.github.affinitykit.core.cpu.CpuSet;
import java.util.List;
import java.util.Objects;

/**
 * Where a Disruptor's threads are planned to run: the producer and each consumer, in the order the
 * Disruptor creates their threads. A CPU of {@code -1} means unpinned; a CPU may appear more than
 * once when the pool ran out and threads share it.
 *
 * <p>Thread safety: immutable.
 *
 * @param pinning what is pinned
 * @param pool the CPUs the plan drew from
 * @param producer the producer's assignment (cpu -1 unless {@code pinning} is {@link Pinning#ALL})
 * @param consumers one assignment per consumer thread, before it starts (tid -1)
 */
public record PipelineAssignments(
    Pinning pinning, CpuSet pool, Assignment producer, List<Assignment> consumers) {
  /**
   * Validates and copies.
   *
   * @param pinning what is pinned; not null
   * @param pool the CPUs the plan drew from; not null
   * @param producer the producer's assignment (cpu -1 unless {@code pinning} is ALL); not null
   * @param consumers one assignment per consumer thread; copied, at least one, no nulls
   */
  public PipelineAssignments {
    Objects.requireNonNull(pinning, "pinning");
    Objects.requireNonNull(pool, "pool");
    Objects.requireNonNull(producer, "producer");
    consumers = List.copyOf(consumers);
    if (consumers.isEmpty()) {
      throw new IllegalArgumentException("consumers: [] (expected: at least one consumer)");
    }
  }

  /**
   * Returns consumer {@code index}'s CPU, or -1 when it is unpinned.
   *
   * @param index the consumer's index, 0-based, in thread-creation order
   * @return a CPU number, or -1 for an unpinned consumer
   */
  public int consumerCpu(int index) {
    return consumers.get(index).cpu();
  }

  /**
   * Returns the CPUs of the pinned consumers.
   *
   * @return each consumer CPU once; empty when no consumer is pinned
   */
  public CpuSet consumerCpus() {
    return CpuSet.of(consumers.stream().mapToInt(Assignment::cpu).filter(c -> c >= 0).toArray());
  }

  /**
   * Returns every pinned CPU: the consumers' and the producer's.
   *
   * @return the consumers' CPUs, plus the producer's when it has one; empty when none is pinned
   */
  public CpuSet cpus() {
    return producer.cpu() >= 0 ? consumerCpus().union(CpuSet.of(producer.cpu())) : consumerCpus();
  }
}
