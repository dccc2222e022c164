package io.github.affinitykit.core;

import java.util.Objects;

/**
 * Where one thread of a {@link PinnedThreadFactory} runs.
 *
 * <p>Thread safety: immutable (a snapshot; ask the factory again for news).
 *
 * @param threadName the name of the thread bound last; the member's name until a thread binds (a
 *     delegate factory may name its threads otherwise)
 * @param tid its kernel thread id, -1 until it has started
 * @param cpu the CPU it is (or will be) bound to, -1 if none
 * @param status what became of its pinning; {@link LeaseStatus#RELEASED} once it has ended
 * @param reason why: the placement that chose the CPU, or the run-out, platform or kernel reason
 */
public record Assignment(String threadName, int tid, int cpu, LeaseStatus status, String reason) {
  /**
   * Validates.
   *
   * @param threadName the name of the thread bound last; the member's name until a thread binds (a
   *     delegate factory may name its threads otherwise); not null
   * @param tid its kernel thread id, -1 until it has started
   * @param cpu the CPU it is (or will be) bound to, -1 if none
   * @param status what became of its pinning; not null
   * @param reason why, in one line for people; not null
   */
  public Assignment {
    Objects.requireNonNull(threadName, "threadName");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(reason, "reason");
  }
}
