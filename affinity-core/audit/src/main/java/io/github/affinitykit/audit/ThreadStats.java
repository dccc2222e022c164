package io.github.affinitykit.audit;

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

  /**
   * Snapshots this JVM. Empty (no threads, zero CPU) where {@code /proc} is absent.
   *
   * @return this JVM's threads and CPU time now
   */
  public static ThreadStats snapshot() {
    return snapshot(Path.of("/"), (int) ProcessHandle.current().pid());
  }

  /**
   * Snapshots process {@code pid} from the procfs under {@code root} (through {@link TaskReader}):
   * threads whose files are gone or garbled are left out, a garbled process CPU time reads 0.
   *
   * @param root the directory holding the {@code proc/} tree, {@code /} for this machine; not null
   * @param pid the process id
   * @return the process's threads and CPU time now; no threads and 0 ns if it is gone
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

  /**
   * Returns {@link System#nanoTime()} when the snapshot was taken.
   *
   * @return the reading taken just before the files were read; only differences mean anything
   */
  public long nanoTime() {
    return nanoTime;
  }

  /**
   * Returns the process's user + system CPU time in ns, all threads ever included.
   *
   * @return the CPU time in ns at 10 ms resolution; 0 if it could not be read
   */
  public long processCpuNs() {
    return processCpuNs;
  }

  /**
   * Returns every thread's counters, by thread id.
   *
   * @return one sample per thread read, ascending by thread id; unmodifiable, possibly empty
   */
  public List<TaskSample> threads() {
    return List.copyOf(threads.values());
  }

  /**
   * Returns the counters of thread {@code tid}, if it was alive at the snapshot.
   *
   * @param tid the kernel thread id
   * @return its sample, or empty if it was not alive or not readable then
   */
  public Optional<TaskSample> thread(int tid) {
    return Optional.ofNullable(threads.get(tid));
  }

  /**
   * Returns the process's CPU use between {@code earlier} and this snapshot, in percent of one CPU
   * (200 = two CPUs busy), like {@code top}.
   *
   * @param earlier an earlier snapshot of the same process; not null
   * @return the percentage of one CPU; 0 if {@code earlier} is not older than this snapshot
   */
  public double cpuPercentSince(ThreadStats earlier) {
    long wall = nanoTime - earlier.nanoTime;
    return wall <= 0 ? 0 : 100.0 * (processCpuNs - earlier.processCpuNs) / wall;
  }

  /**
   * Returns each thread's counters accumulated since {@code earlier}: a thread born in between
   * counts from zero. Counters unknown in either snapshot stay {@code -1}.
   *
   * @param earlier an earlier snapshot of the same process; not null
   * @return one sample per thread of this snapshot, ascending by thread id; a thread that was not
   *     in {@code earlier}, or had another name there (a reused id), counts from zero
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
