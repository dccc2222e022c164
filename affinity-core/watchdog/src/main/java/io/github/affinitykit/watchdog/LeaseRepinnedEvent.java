package io.github.affinitykit.watchdog;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A watchdog tried to bind a moved thread to its CPU again ({@code RepinPolicy.REPIN}): done, or
 * why not (its CPU is gone, the kernel refused).
 *
 * <p>Thread safety: an event; one thread fills and commits it.
 */
@Name("io.github.affinitykit.LeaseRepinned")
@Label("Lease Repinned")
@Category("Affinity Kit")
@Description("A watchdog bound a moved thread to its CPU again, or says why it could not")
@StackTrace(false)
@SuppressWarnings("checkstyle:visibilitymodifier") // events are filled field by field, as JDK ones
final class LeaseRepinnedEvent extends jdk.jfr.Event {
  /** An empty event, to fill and commit. */
  LeaseRepinnedEvent() {
    // fields are set one by one
  }

  /** The CPU it is pinned to. */
  @Label("CPU")
  public int cpu;

  /** The thread's kernel id. */
  @Label("TID")
  public int tid;

  /** Whether it runs on its CPU alone again. */
  @Label("Repinned")
  public boolean repinned;

  /** The CPUs the kernel allowed it on before, as a cpu list. */
  @Label("Allowed")
  public String allowed;

  /** Why not, when it was not; else the move it undid. */
  @Label("Detail")
  public String detail;

  /** Commits one if a recording enabled it. */
  static void commit(int cpu, int tid, boolean repinned, String allowed, String detail) {
    LeaseRepinnedEvent e = new LeaseRepinnedEvent();
    if (e.shouldCommit()) {
      e.cpu = cpu;
      e.tid = tid;
      e.repinned = repinned;
      e.allowed = allowed;
      e.detail = detail;
      e.commit();
    }
  }
}
