package io.github.affinitykit.disruptor.demo;

import io.github.affinitykit.audit.TaskSample;
import io.github.affinitykit.audit.ThreadStats;
import java.util.Collection;

/**
 * The consumers' context switches per second over one window: voluntary (the thread waited) and
 * involuntary (the scheduler preempted it).
 *
 * <p>Thread safety: immutable.
 *
 * @param voluntaryPerSecond voluntary context switches per second, all consumers together
 * @param involuntaryPerSecond involuntary context switches (preemptions) per second
 */
record Switches(double voluntaryPerSecond, double involuntaryPerSecond) {

  /** Returns the switches of the threads {@code tids} between snapshots {@code a} and {@code b}. */
  static Switches between(ThreadStats a, ThreadStats b, Collection<Integer> tids) {
    return new Switches(
        Usage.perSecond(a, b, tids, TaskSample::voluntarySwitches),
        Usage.perSecond(a, b, tids, TaskSample::involuntarySwitches));
  }
}
