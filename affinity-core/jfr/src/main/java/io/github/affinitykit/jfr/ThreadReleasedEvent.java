package io.github.affinitykit.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A lease closed: the thread's previous mask restored, its CPU given back to its seat. Thread
 * safety: one thread fills and commits it.
 */
@Name("io.github.affinitykit.ThreadReleased")
@Label("Thread Released")
@Category("Affinity Kit")
@Description("A lease closed: the thread's previous mask restored")
@StackTrace(false)
@SuppressWarnings("checkstyle:visibilitymodifier") // events are filled field by field, as JDK ones
final class ThreadReleasedEvent extends jdk.jfr.Event {
  /** The CPU the lease held, -1 if none. */
  @Label("CPU")
  public int cpu;

  /** The thread's kernel id, -1 if unknown. */
  @Label("TID")
  public int tid;

  /** The lease's status as it closed: PINNED, MOVED, LOST, ... */
  @Label("Status")
  public String status;
}
