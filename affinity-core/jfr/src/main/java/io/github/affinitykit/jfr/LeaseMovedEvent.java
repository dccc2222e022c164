package io.github.affinitykit.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A check found a pinned thread allowed on other CPUs than its own: the CPU went offline, a cpuset
 * shrank, someone re-pinned it. Thread safety: one thread fills and commits it.
 */
@Name("io.github.affinitykit.LeaseMoved")
@Label("Lease Moved")
@Category("Affinity Kit")
@Description("A pinned thread found allowed on other CPUs than its own")
@StackTrace(false)
@SuppressWarnings("checkstyle:visibilitymodifier") // events are filled field by field, as JDK ones
final class LeaseMovedEvent extends jdk.jfr.Event {
  @Label("CPU")
  public int cpu;

  @Label("TID")
  public int tid;

  /** The CPUs the kernel allows it on now, as a cpu list. */
  @Label("Allowed")
  public String allowed;
}
