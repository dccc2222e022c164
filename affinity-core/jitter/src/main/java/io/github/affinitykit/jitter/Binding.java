package io.github.affinitykit.jitter;

import io.github.affinitykit.core.LeaseStatus;

/**
 * What a sampling thread's lease said when it bound (its status once closed is {@code RELEASED}).
 *
 * <p>Thread safety: immutable.
 *
 * @param cpu the CPU it bound, -1 if none
 * @param tid the thread's kernel id, -1 if unknown
 * @param status the lease's status
 * @param reason the lease's reason
 */
record Binding(int cpu, int tid, LeaseStatus status, String reason) {
  /** Whether the thread ran on its CPU: bound, alone ({@code PINNED}) or with the group's own. */
  boolean pinned() {
    return cpu >= 0 && (status == LeaseStatus.PINNED || status == LeaseStatus.SHARED);
  }
}
