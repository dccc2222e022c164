package io.github.affinitykit.micrometer;

import io.github.affinitykit.audit.TaskReader;
import io.github.affinitykit.audit.TaskSample;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * One pinned thread's scheduler counters, read from {@code /proc/<pid>/task/<tid>} when a meter
 * asks: one read serves every meter of the thread read within {@link #MAX_AGE_NS} (a scrape reads
 * them together). A thread that cannot be read again (it ended, its files are gone), or whose
 * counters went back (its id was reused), keeps the values read last: the meters never go back.
 *
 * <p>Thread safety: the readers may be called from any thread (a registry's scrape or publisher);
 * reads are serialised on the probe.
 */
final class ThreadProbe {
  /** How long one read of the task files serves the thread's meters: 100 ms. */
  static final long MAX_AGE_NS = 100_000_000L;

  private final TaskReader reader;
  private final int pid;
  private final int tid;
  private final LongSupplier nanoClock;
  private TaskSample last; // guarded by this
  private long readAt; // guarded by this

  private ThreadProbe(
      TaskReader reader, int pid, int tid, LongSupplier nanoClock, TaskSample first) {
    this.reader = reader;
    this.pid = pid;
    this.tid = tid;
    this.nanoClock = nanoClock;
    this.last = first;
    this.readAt = nanoClock.getAsLong();
  }

  /**
   * Reads thread {@code tid} of process {@code pid} once: empty where its task files cannot be read
   * (not Linux, the thread is gone, {@code hidepid}), and then the thread has no such meters.
   */
  static Optional<ThreadProbe> of(TaskReader reader, int pid, int tid) {
    return of(reader, pid, tid, System::nanoTime);
  }

  /** As {@link #of(TaskReader, int, int)}, ages measured on {@code nanoClock} (tests step it). */
  static Optional<ThreadProbe> of(TaskReader reader, int pid, int tid, LongSupplier nanoClock) {
    Objects.requireNonNull(reader, "reader");
    Objects.requireNonNull(nanoClock, "nanoClock");
    return reader.read(pid, tid).map(s -> new ThreadProbe(reader, pid, tid, nanoClock, s));
  }

  /** Returns the sample read last, reading again if it is older than {@link #MAX_AGE_NS}. */
  synchronized TaskSample sample() {
    long now = nanoClock.getAsLong();
    if (now - readAt >= MAX_AGE_NS) {
      readAt = now;
      reader.read(pid, tid).filter(this::notBehind).ifPresent(s -> last = s);
    }
    return last;
  }

  /**
   * A sample with a counter below the last one read is another thread's (a reused id): kept out.
   */
  private boolean notBehind(TaskSample s) {
    return s.cpuNs() >= last.cpuNs()
        && s.voluntarySwitches() >= last.voluntarySwitches()
        && s.involuntarySwitches() >= last.involuntarySwitches();
  }

  /** User + system CPU time in seconds (10 ms resolution). */
  static double cpuSeconds(ThreadProbe p) {
    return p.sample().cpuNs() / 1e9;
  }

  /** Context switches because the thread blocked. */
  static double voluntarySwitches(ThreadProbe p) {
    return Math.max(0, p.sample().voluntarySwitches());
  }

  /** Context switches because the thread was preempted. */
  static double involuntarySwitches(ThreadProbe p) {
    return Math.max(0, p.sample().involuntarySwitches());
  }
}
