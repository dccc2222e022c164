package io.github.affinitykit.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A thread bound to its seat's CPU (or confined to its group's unpinned CPUs). Thread safety: one
 * thread fills and commits it.
 */
@Name("io.github.affinitykit.ThreadPinned")
@Label("Thread Pinned")
@Category("Affinity Kit")
@Description("A thread bound to a CPU by its group: where, why, and its memory policy")
@StackTrace(false)
@SuppressWarnings("checkstyle:visibilitymodifier") // events are filled field by field, as JDK ones
final class ThreadPinnedEvent extends jdk.jfr.Event {
  @Label("Group")
  public String group;

  /** The member's name ({@code worker-0}). */
  @Label("Member")
  public String member;

  /** The CPU, -1 if none (unpinned, unsupported, failed). */
  @Label("CPU")
  public int cpu;

  /** The thread's kernel id, -1 if unknown. */
  @Label("TID")
  public int tid;

  /** The lease's status: PINNED, SHARED, UNPINNED, UNSUPPORTED, FAILED. */
  @Label("Status")
  public String status;

  /** The placement that chose the CPU, or why there is none. */
  @Label("Reason")
  public String reason;

  /** What became of the group's memory policy, empty where none was asked. */
  @Label("Memory Policy")
  public String memoryPolicy;
}
