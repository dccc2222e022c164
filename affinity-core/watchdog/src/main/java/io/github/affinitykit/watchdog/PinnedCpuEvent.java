package io.github.affinitykit.watchdog;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * One pinned thread and its CPU at a watchdog's check: the lease's status, the audit's verdict and
 * intruders (when the watchdog audits), and the context switches the thread made since the previous
 * check. Committed once per pinned thread at every check, while a recording enables it.
 *
 * <p>Thread safety: an event; one thread fills and commits it.
 */
@Name("io.github.affinitykit.PinnedCpu")
@Label("Pinned CPU")
@Category("Affinity Kit")
@Description("A pinned thread at a watchdog's check: status, verdict, intruders, context switches")
@StackTrace(false)
@SuppressWarnings("checkstyle:visibilitymodifier") // events are filled field by field, as JDK ones
final class PinnedCpuEvent extends jdk.jfr.Event {
  /** An empty event, to fill and commit. */
  PinnedCpuEvent() {
    // fields are set one by one
  }

  /** The CPU the thread is pinned to. */
  @Label("CPU")
  public int cpu;

  /** The thread's kernel id. */
  @Label("TID")
  public int tid;

  /** The thread's name at its bind. */
  @Label("Thread")
  public String thread;

  /** Its group's name. */
  @Label("Group")
  public String group;

  /** The lease's status: PINNED, SHARED, MOVED, LOST. */
  @Label("Status")
  public String status;

  /** The audit's verdict of the CPU (EXCLUSIVE, INTRUDED, UNKNOWN); empty when not audited. */
  @Label("Verdict")
  public String verdict;

  /** What else ran or may run there, as the audit named them; empty when none or not audited. */
  @Label("Intruders")
  public String intruders;

  /** Voluntary context switches since the previous check (it waited); since it began, at first. */
  @Label("Voluntary Switches")
  public long voluntarySwitches;

  /** Involuntary switches since the previous check (it was preempted); since it began, at first. */
  @Label("Involuntary Switches")
  public long involuntarySwitches;

  /** How long since the previous check of this thread; 0 at its first. */
  @Label("Interval")
  @Timespan(Timespan.NANOSECONDS)
  public long interval;

  /** Whether a recording enabled it. */
  static boolean enabled() {
    return new PinnedCpuEvent().isEnabled();
  }

  /** Commits one if a recording enabled it. */
  static void commit(PinnedCpuSample s) {
    PinnedCpuEvent e = new PinnedCpuEvent();
    if (e.shouldCommit()) {
      e.cpu = s.cpu();
      e.tid = s.tid();
      e.thread = s.thread();
      e.group = s.group();
      e.status = s.status();
      e.verdict = s.verdict();
      e.intruders = s.intruders();
      e.voluntarySwitches = s.voluntarySwitches();
      e.involuntarySwitches = s.involuntarySwitches();
      e.interval = s.intervalNs();
      e.commit();
    }
  }
}
