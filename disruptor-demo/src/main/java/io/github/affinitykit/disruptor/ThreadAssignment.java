package io.github.affinitykit.disruptor;

import java.util.Objects;

/**
 * Where one thread of a Disruptor runs (or is planned to run), and what that means for waiting.
 *
 * <p>Thread safety: immutable.
 *
 * @param role {@code producer} or {@code consumer-<n>}
 * @param cpu the CPU it is pinned to, or -1 when unpinned
 * @param ownership how much of the CPU it has to itself
 * @param reason the facts behind {@code ownership}, with CPU numbers
 */
public record ThreadAssignment(String role, int cpu, CpuOwnership ownership, String reason) {
  /**
   * Validates.
   *
   * @param role {@code producer} or {@code consumer-<n>}; not null
   * @param cpu the CPU it is pinned to, or -1 when unpinned; never below -1
   * @param ownership how much of the CPU it has to itself; not null
   * @param reason the facts behind {@code ownership}, with CPU numbers; not null
   */
  public ThreadAssignment {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(ownership, "ownership");
    Objects.requireNonNull(reason, "reason");
    if (cpu < -1) {
      throw new IllegalArgumentException("cpu: " + cpu + " (expected: >= -1)");
    }
  }

  @Override
  public String toString() {
    return role
        + (cpu < 0 ? " unpinned" : " on cpu " + cpu)
        + ": "
        + ownership
        + " ("
        + reason
        + ")";
  }
}
