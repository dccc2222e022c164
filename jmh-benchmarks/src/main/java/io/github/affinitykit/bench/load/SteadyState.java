package io.github.affinitykit.bench.load;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;

/**
 * The steady-state criterion every gateway JVM is driven to before anything is measured: the
 * server's CPU-µs per echoed message over consecutive {@link #WINDOW_NS 1 s} windows, the last
 * {@link #WINDOWS three} each within {@link #TOLERANCE 5%} of their mean, widened by what {@code
 * /proc}'s 10 ms CPU tick can resolve in a window. A JVM still compiling shows a falling CPU per
 * message; one the machine disturbs shows it jumping; neither meets the criterion. The caller
 * bounds the time it waits and records whether the criterion was met.
 *
 * <p>Thread safety: one thread feeds and reads it.
 */
final class SteadyState {
  /** One window's length. */
  static final long WINDOW_NS = 1_000_000_000L;

  /** Consecutive windows that must agree. */
  static final int WINDOWS = 3;

  /** How far each of them may lie from their mean, as a fraction. */
  static final double TOLERANCE = 0.05;

  /** The resolution of a process's CPU time in {@code /proc/<pid>/stat} (USER_HZ = 100). */
  static final long TICK_NS = 10_000_000L;

  /** The criterion in words, for the report. */
  static final String RULE =
      String.format(
          Locale.ROOT,
          "server CPU-µs per message over %d consecutive %d s windows each within %.0f%% of their"
              + " mean (plus the 10 ms resolution of /proc's CPU time)",
          WINDOWS,
          WINDOW_NS / 1_000_000_000L,
          TOLERANCE * 100);

  /**
   * One window: its length, the server's CPU time and the messages echoed in it.
   *
   * @param ns the window's length
   * @param cpuNs server CPU time in it
   * @param messages echoes received in it
   */
  record Window(long ns, long cpuNs, long messages) {
    /** CPU-µs per message; +Infinity without messages. */
    double usPerMessage() {
      return messages <= 0 ? Double.POSITIVE_INFINITY : cpuNs / 1e3 / messages;
    }

    /** How much CPU-µs per message the tick resolution blurs (two edges, one tick each). */
    double resolutionUs() {
      return messages <= 0 ? Double.POSITIVE_INFINITY : 2.0 * TICK_NS / 1e3 / messages;
    }
  }

  private final Deque<Window> last = new ArrayDeque<>();
  private int seen;

  /** Adds the window that just ended. */
  void add(Window w) {
    last.addLast(w);
    if (last.size() > WINDOWS) {
      last.removeFirst();
    }
    seen++;
  }

  /** Returns the windows added so far. */
  int windows() {
    return seen;
  }

  /** Returns whether the last {@link #WINDOWS} windows meet the criterion. */
  boolean steady() {
    if (last.size() < WINDOWS) {
      return false;
    }
    double mean = 0;
    for (Window w : last) {
      if (w.messages() <= 0) {
        return false;
      }
      mean += w.usPerMessage() / WINDOWS;
    }
    for (Window w : last) {
      if (Math.abs(w.usPerMessage() - mean) > TOLERANCE * mean + w.resolutionUs()) {
        return false;
      }
    }
    return true;
  }

  /** Returns the server's CPU over the last windows, 100 = one CPU; NaN before any. */
  double cpuPercent() {
    long ns = last.stream().mapToLong(Window::ns).sum();
    return ns == 0 ? Double.NaN : last.stream().mapToLong(Window::cpuNs).sum() * 100.0 / ns;
  }

  /** Returns the messages echoed per second over the last windows; NaN before any. */
  double messagesPerSecond() {
    long ns = last.stream().mapToLong(Window::ns).sum();
    return ns == 0 ? Double.NaN : last.stream().mapToLong(Window::messages).sum() * 1e9 / ns;
  }

  /** Returns the last windows' CPU-µs per message, oldest first, for the record. */
  List<Double> recent() {
    return last.stream().map(Window::usPerMessage).toList();
  }
}
