package io.github.affinitykit.audit;

import io.github.affinitykit.core.cpu.CpuSet;
import java.util.Objects;

/**
 * The scheduler's counters for one Linux task (a thread) at one moment, read from {@code
 * /proc/<pid>/task/<tid>/{stat,status,schedstat,sched}}. Counters the kernel does not expose are
 * {@code -1}.
 *
 * <p>Thread safety: immutable.
 *
 * @param pid the process (thread group) id
 * @param tid the thread id
 * @param name the kernel's thread name ({@code comm}, at most 15 characters)
 * @param state the one-letter state ({@code R}, {@code S}, {@code D}, ...)
 * @param flags the kernel's {@code PF_*} flags (stat field 9)
 * @param userNs CPU time in user mode (stat field 14, 10 ms resolution)
 * @param systemNs CPU time in kernel mode (stat field 15, 10 ms resolution)
 * @param runNs time on a CPU ({@code schedstat} field 1, ns), -1 if unknown
 * @param waitNs time runnable but waiting for a CPU ({@code schedstat} field 2, ns), -1 if unknown
 * @param voluntarySwitches context switches because the thread blocked
 * @param involuntarySwitches context switches because the thread was preempted
 * @param migrations moves between CPUs ({@code se.nr_migrations}), -1 if not exposed
 * @param lastCpu the CPU it last ran on (stat field 39)
 * @param allowed its {@code Cpus_allowed_list}; empty if unknown
 */
public record TaskSample(
    int pid,
    int tid,
    String name,
    char state,
    long flags,
    long userNs,
    long systemNs,
    long runNs,
    long waitNs,
    long voluntarySwitches,
    long involuntarySwitches,
    long migrations,
    int lastCpu,
    CpuSet allowed) {

  /** {@code PF_KTHREAD}: a kernel thread. */
  public static final long PF_KTHREAD = 0x0020_0000L;

  /** {@code PF_NO_SETAFFINITY}: the kernel forbids changing this task's affinity. */
  public static final long PF_NO_SETAFFINITY = 0x0400_0000L;

  /**
   * Validates.
   *
   * @param pid the process (thread group) id
   * @param tid the kernel thread id
   * @param name the kernel's thread name ({@code comm}); not null
   * @param state the one-letter state ({@code R}, {@code S}, {@code D}, ...)
   * @param flags the kernel's {@code PF_*} flags
   * @param userNs CPU time in user mode, ns at 10 ms resolution
   * @param systemNs CPU time in kernel mode, ns at 10 ms resolution
   * @param runNs time on a CPU in ns, -1 if unknown
   * @param waitNs time runnable but waiting for a CPU in ns, -1 if unknown
   * @param voluntarySwitches context switches because the thread blocked, -1 if unknown
   * @param involuntarySwitches context switches because the thread was preempted, -1 if unknown
   * @param migrations moves between CPUs, -1 if unknown
   * @param lastCpu the CPU it last ran on
   * @param allowed its allowed CPUs, empty if unknown; not null
   */
  public TaskSample {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(allowed, "allowed");
  }

  /**
   * Returns user + system CPU time in ns.
   *
   * @return {@code userNs + systemNs}, at 10 ms resolution; a delta for a {@link #minus} result
   */
  public long cpuNs() {
    return userNs + systemNs;
  }

  /**
   * Returns whether this is a kernel thread.
   *
   * @return true if {@code flags} has {@link #PF_KTHREAD}
   */
  public boolean isKernelThread() {
    return (flags & PF_KTHREAD) != 0;
  }

  /**
   * Returns whether the kernel forbids moving this task to other CPUs.
   *
   * @return true if {@code flags} has {@link #PF_NO_SETAFFINITY}
   */
  public boolean isUnmovable() {
    return (flags & PF_NO_SETAFFINITY) != 0;
  }

  /**
   * Returns the counters accumulated since {@code earlier} (the same thread, sampled before):
   * identity, state, last CPU and mask from this sample; a counter unknown in either stays -1.
   *
   * @param earlier an earlier sample of the same thread (not checked); not null
   * @return a sample whose counters are the differences
   */
  public TaskSample minus(TaskSample earlier) {
    return new TaskSample(
        pid,
        tid,
        name,
        state,
        flags,
        userNs - earlier.userNs,
        systemNs - earlier.systemNs,
        diff(runNs, earlier.runNs),
        diff(waitNs, earlier.waitNs),
        diff(voluntarySwitches, earlier.voluntarySwitches),
        diff(involuntarySwitches, earlier.involuntarySwitches),
        diff(migrations, earlier.migrations),
        lastCpu,
        allowed);
  }

  private static long diff(long a, long b) {
    return a < 0 || b < 0 ? -1 : a - b;
  }
}
