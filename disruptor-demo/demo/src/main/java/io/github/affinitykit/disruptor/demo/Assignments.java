package io.github.affinitykit.disruptor.demo;

import io.github.affinitykit.core.Assignment;
import io.github.affinitykit.core.LeaseStatus;

/**
 * How {@code compare-queues} prints where a thread ran: from its {@link Assignment}.
 *
 * <p>Thread safety: stateless.
 */
final class Assignments {
  private Assignments() {}

  /** Returns the CPU the thread was bound to, or {@code *} when it ran unpinned. */
  static String cpu(Assignment a) {
    boolean bound = a.status() == LeaseStatus.PINNED || a.status() == LeaseStatus.SHARED;
    return bound || (a.status() == LeaseStatus.RELEASED && a.cpu() >= 0) ? "" + a.cpu() : "*";
  }

  /** Returns {@code name: cpu N STATUS (reason)}. */
  static String line(Assignment a) {
    return a.threadName() + ": cpu " + cpu(a) + " " + a.status() + " (" + a.reason() + ")";
  }
}
