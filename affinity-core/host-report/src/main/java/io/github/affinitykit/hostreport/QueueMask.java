package io.github.affinitykit.hostreport;

import io.github.affinitykit.core.cpu.CpuSet;
import java.util.Objects;

/**
 * The CPUs one queue of a network device is steered to in software: RPS for a receive queue ({@code
 * queues/rx-N/rps_cpus}), XPS for a transmit queue ({@code queues/tx-N/xps_cpus}).
 *
 * <p>Thread safety: immutable.
 *
 * @param queue the queue's index N
 * @param cpus the CPUs of the mask; never empty (an all-zero mask means "not set" and is not kept)
 */
public record QueueMask(int queue, CpuSet cpus) {
  /**
   * Validates.
   *
   * @param queue the queue's index, 0 or more
   * @param cpus the CPUs of the mask; not null, not empty
   */
  public QueueMask {
    if (queue < 0) {
      throw new IllegalArgumentException("queue: " + queue + " (expected: >= 0)");
    }
    Objects.requireNonNull(cpus, "cpus");
    if (cpus.isEmpty()) {
      throw new IllegalArgumentException("cpus: empty (expected: a set mask)");
    }
  }
}
