package io.github.affinitykit.watchdog;

/**
 * What a watchdog saw of one pinned thread at a check, for {@link WatchFlight#pinnedCpu}. Thread
 * safety: immutable.
 *
 * @param cpu the CPU the thread is pinned to
 * @param tid the thread's kernel id
 * @param thread the thread's name
 * @param group its group's name
 * @param status the lease's status
 * @param verdict the audit's verdict of the CPU; empty when not audited
 * @param intruders what else ran there; empty when none or not audited
 * @param voluntarySwitches voluntary context switches since the previous check (since the thread
 *     began, at its first)
 * @param involuntarySwitches involuntary context switches since the previous check (since the
 *     thread began, at its first)
 * @param intervalNs nanoseconds since the previous check of the thread; 0 at its first
 */
record PinnedCpuSample(
    int cpu,
    int tid,
    String thread,
    String group,
    String status,
    String verdict,
    String intruders,
    long voluntarySwitches,
    long involuntarySwitches,
    long intervalNs) {}
