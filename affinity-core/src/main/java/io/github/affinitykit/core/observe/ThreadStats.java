package io.github.affinitykit.core.observe;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A snapshot of the scheduler counters of every thread of one process, and of the process as a
 * whole: CPU time user/system, voluntary and involuntary context switches, run-queue wait, last
 * CPU, migrations. Two snapshots give rates: {@link #since(ThreadStats)} and {@link
 * #cpuPercentSince(ThreadStats)}.
 *
 * <p>Threads that end between two snapshots vanish from the later one; take a snapshot before
 * stopping threads whose counters matter (JMH's {@code @TearDown}, a loop's shutdown).
 *
 * <p>Thread safety: immutable; {@link #snapshot()} may be called from any thread.
 */
public final class ThreadStats {
  private final long nanoTime;
  private final long processCpuNs;
  private final Map<Integer, TaskSample> threads;

  private ThreadStats(long nanoTime, long processCpuNs, Map<Integer, TaskSample> threads) {
    this.nanoTime = nanoTime;
    this.processCpuNs = processCpuNs;
    this.threads = Collections.unmodifiableMap(threads);
  }

  /** Snapshots this JVM. Empty (no threads, zero CPU) where {@code /proc} is absent. */
  public static ThreadStats snapshot() {
    return snapshot(Path.of("/"), (int) ProcessHandle.current().pid());
  }

  /**
   * Snapshots process {@code pid} from the procfs under {@code root} (through {@link TaskReader}):
   * threads whose files are gone or garbled are left out, a garbled process CPU time reads 0.
   */
  public static ThreadStats snapshot(Path root, int pid) {
    TaskReader reader = TaskReader.at(root);
    long now = System.nanoTime();
    Map<Integer, TaskSample> threads = new TreeMap<>();
    for (int tid : reader.threadIds(pid)) {
      reader.read(pid, tid).ifPresent(t -> threads.put(tid, t));
    }
    return new ThreadStats(now, reader.processCpuNs(pid).orElse(0), threads);
  }

  /** Returns {@link System#nanoTime()} when the snapshot was taken. */
  public long nanoTime() {
    return nanoTime;
  }

  /** Returns the process's user + system CPU time in ns, all threads ever included. */
  public long processCpuNs() {
    return processCpuNs;
  }

  /** Returns every thread's counters, by thread id. */
  public List<TaskSample> threads() {
    return List.copyOf(threads.values());
  }

  /** Returns the counters of thread {@code tid}, if it was alive at the snapshot. */
  public Optional<TaskSample> thread(int tid) {
    return Optional.ofNullable(threads.get(tid));
  }

  /**
   * Returns the process's CPU use between {@code earlier} and this snapshot, in percent of one CPU
   * (200 = two CPUs busy), like {@code top}.
   */
  public double cpuPercentSince(ThreadStats earlier) {
    long wall = nanoTime - earlier.nanoTime;
    return wall <= 0 ? 0 : 100.0 * (processCpuNs - earlier.processCpuNs) / wall;
  }

  /**
   * Returns each thread's counters accumulated since {@code earlier}: a thread born in between
   * counts from zero. Counters unknown in either snapshot stay {@code -1}.
   */
  public List<TaskSample> since(ThreadStats earlier) {
    List<TaskSample> out = new ArrayList<>();
    for (TaskSample now : threads.values()) {
      TaskSample then = earlier.threads.get(now.tid());
      out.add(then == null || !then.name().equals(now.name()) ? now : now.minus(then));
    }
    return out;
  }
}
