package io.github.affinitykit.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * CPUs isolated at runtime (or refused), or an isolation undone; or the rest of the JVM confined to
 * housekeeping CPUs, or let go again. Thread safety: one thread fills and commits it.
 */
@Name("io.github.affinitykit.Isolation")
@Label("Isolation")
@Category("Affinity Kit")
@Description("CPUs isolated or released at runtime, or the JVM's other threads confined or freed")
@StackTrace(false)
@SuppressWarnings("checkstyle:visibilitymodifier") // events are filled field by field, as JDK ones
final class IsolationEvent extends jdk.jfr.Event {
  /** {@code isolation} or {@code confinement}. */
  @Label("Kind")
  public String kind;

  /** The CPUs isolated, or those the other threads were confined to, as a cpu list. */
  @Label("CPUs")
  public String cpus;

  /** ISOLATED, REFUSED, RELEASED; CONFINED, FREED. */
  @Label("Status")
  public String status;

  /** The mechanism or what was done, and why not where refused. */
  @Label("Detail")
  public String detail;
}
