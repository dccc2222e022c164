package io.github.affinitykit.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A check found the reservation of a pinned thread's CPU lost: its lock file deleted or replaced,
 * so another process may take the CPU. Thread safety: one thread fills and commits it.
 */
@Name("io.github.affinitykit.LeaseLost")
@Label("Lease Lost")
@Category("Affinity Kit")
@Description("The reservation of a pinned thread's CPU found lost")
@StackTrace(false)
@SuppressWarnings("checkstyle:visibilitymodifier") // events are filled field by field, as JDK ones
final class LeaseLostEvent extends jdk.jfr.Event {
  @Label("CPU")
  public int cpu;

  @Label("TID")
  public int tid;

  /** Why: the seat's reason. */
  @Label("Reason")
  public String reason;
}
