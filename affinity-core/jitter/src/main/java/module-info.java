/**
 * Affinity Kit's jitter sampler ({@code io.github.affinitykit.jitter}): the gaps a spinning thread
 * pinned to a CPU observes over a window (a histogram from 1 µs, the largest gaps with when they
 * happened, the share of the window lost), each large gap beside the counters that explain it
 * (interrupts by source with the local timer, softirqs by type, task switches) and the audit of who
 * else ran there. A user who pins threads needs none of it, and a sampling thread is a busy CPU for
 * its whole window, so it is an artifact of its own, built on affinity-core (pinning, bounded reads
 * of the kernel's files) and affinity-audit (the tasks that ran there).
 */
module io.github.affinitykit.jitter {
  requires transitive io.github.affinitykit.core;
  requires transitive io.github.affinitykit.audit;
  // the JitterGap Flight Recorder event, committed only where the runtime has the module
  requires static jdk.jfr;

  exports io.github.affinitykit.jitter;
}
