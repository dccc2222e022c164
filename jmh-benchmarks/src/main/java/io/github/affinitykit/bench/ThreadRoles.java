package io.github.affinitykit.bench;

import io.github.affinitykit.audit.TaskReader;
import io.github.affinitykit.audit.TaskSample;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Lets benchmark threads say what they are ({@code producer}, {@code consumer}, ...) so that {@link
 * ThreadStatsProfiler} reports CPU and context switches per role, and keeps the last counters of
 * tagged threads that end before the profiler looks (threads stopped in {@code @TearDown} vanish
 * from {@code /proc} before JMH's last {@code afterIteration}).
 *
 * <p>Untagged threads get a role from their name: {@code gc}, {@code jit}, {@code jmh} (JMH's
 * worker threads), else {@code other}.
 *
 * <p>Thread safety: safe for concurrent use; {@link #tag} and {@link #finish} act on the calling
 * thread.
 */
public final class ThreadRoles {
  private static final Map<Integer, String> ROLES = new ConcurrentHashMap<>();
  private static final Map<Integer, TaskSample> DEPARTED = new ConcurrentHashMap<>();

  private ThreadRoles() {}

  /** Tags the calling thread with {@code role}. */
  public static void tag(String role) {
    int tid = currentTid();
    if (tid > 0) {
      ROLES.put(tid, role);
    }
  }

  /**
   * Records the calling thread's final counters: call it last thing in a tagged thread's run, so
   * the profiler still counts the thread after it ends.
   */
  public static void finish() {
    TaskReader.live().readCurrentThread().ifPresent(t -> DEPARTED.put(t.tid(), t));
  }

  /** Returns the last counters recorded by {@link #finish()} since the last clear, by TID. */
  static Map<Integer, TaskSample> departed() {
    return Map.copyOf(DEPARTED);
  }

  /** Forgets departed threads (the profiler calls it when an iteration starts). */
  static void clearDeparted() {
    DEPARTED.clear();
  }

  /** Returns the role of a thread: its tag, else one derived from its name. */
  static String roleOf(TaskSample t) {
    String tagged = ROLES.get(t.tid());
    if (tagged != null) {
      return tagged;
    }
    String n = t.name();
    if (n.startsWith("GC Thread") || n.startsWith("G1 ") || n.startsWith("VM Thread")) {
      return "gc";
    }
    if (n.startsWith("C1 Compiler") || n.startsWith("C2 Compiler")) {
      return "jit";
    }
    if (n.contains("jmh-worker")) {
      return "jmh";
    }
    return "other";
  }

  /** The calling thread's Linux TID (core's {@link TaskReader}); -1 elsewhere. */
  static int currentTid() {
    return TaskReader.live().currentThreadId().orElse(-1);
  }
}
