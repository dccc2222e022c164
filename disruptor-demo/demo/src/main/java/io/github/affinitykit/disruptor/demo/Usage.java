package io.github.affinitykit.disruptor.demo;

import io.github.affinitykit.audit.TaskSample;
import io.github.affinitykit.audit.ThreadStats;
import java.util.Collection;
import java.util.function.ToLongFunction;

/**
 * CPU and context-switch arithmetic between two {@link ThreadStats} snapshots of this JVM.
 *
 * <p>Thread safety: stateless.
 */
final class Usage {
  private Usage() {}

  /**
   * Returns the CPUs the process used between {@code a} and {@code b} (1.0 = one CPU all the time):
   * the threads' on-CPU nanoseconds from {@code schedstat}, or their 10 ms ticks where absent.
   */
  static double cores(ThreadStats a, ThreadStats b) {
    long wall = b.nanoTime() - a.nanoTime();
    long ns = 0;
    for (TaskSample t : b.since(a)) {
      ns += t.runNs() >= 0 ? t.runNs() : t.cpuNs();
    }
    return wall <= 0 ? 0 : (double) ns / wall;
  }

  /**
   * Returns {@code counter} summed over {@code tids}, per second between {@code a} and {@code b}.
   */
  static double perSecond(
      ThreadStats a, ThreadStats b, Collection<Integer> tids, ToLongFunction<TaskSample> counter) {
    long wall = b.nanoTime() - a.nanoTime();
    long n = 0;
    for (TaskSample t : b.since(a)) {
      if (tids.contains(t.tid())) {
        n += Math.max(0, counter.applyAsLong(t));
      }
    }
    return wall <= 0 ? 0 : n * 1e9 / wall;
  }
}
