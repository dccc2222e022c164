package io.github.affinitykit.jitter;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;
import jdk.jfr.Timestamp;

/**
 * A gap over the sampler's threshold, as a Flight Recorder event: committed when the window ends
 * (not while sampling, where the commit would be a gap of its own), so its own start time is the
 * window's end and the gap's start is a field.
 *
 * <p>Thread safety: an event; one thread fills and commits it.
 */
@Name("io.github.affinitykit.JitterGap")
@Label("Jitter Gap")
@Category("Affinity Kit")
@Description("A gap a spinning thread pinned to a CPU saw between two clock reads, with its cause")
@StackTrace(false)
@SuppressWarnings("checkstyle:visibilitymodifier") // events are filled field by field, as JDK ones
final class JitterGapEvent extends jdk.jfr.Event {
  /** An empty event, to fill and commit. */
  JitterGapEvent() {
    // fields are set one by one
  }

  /** The CPU sampled. */
  @Label("CPU")
  public int cpu;

  /** When the gap began. */
  @Label("Gap Start")
  @Timestamp(Timestamp.MILLISECONDS_SINCE_EPOCH)
  public long gapStart;

  /** How long it lasted. */
  @Label("Gap Duration")
  @Timespan(Timespan.NANOSECONDS)
  public long gapDuration;

  /** The counters that moved while it happened, or unexplained. */
  @Label("Cause")
  public String cause;

  /**
   * Commits one event per gap if a recording enabled the event.
   *
   * @param gaps the gaps over the threshold
   */
  static void commit(Iterable<Gap> gaps) {
    for (Gap g : gaps) {
      JitterGapEvent e = new JitterGapEvent();
      if (!e.shouldCommit()) {
        return;
      }
      e.cpu = g.cpu();
      e.gapStart = g.start().toEpochMilli();
      e.gapDuration = g.durationNs();
      e.cause = g.attribution().cause();
      e.commit();
    }
  }
}
