package io.github.affinitykit.watchdog;

import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.cpu.CpuSet;
import java.time.Instant;
import java.util.Objects;

/**
 * One change a {@link Watchdog} found in a pinned thread or its CPU.
 *
 * <p>Thread safety: immutable.
 *
 * @param kind what changed
 * @param at when the check found it
 * @param group the lease's group ("" for a CPU's verdict)
 * @param member the lease's member ("" for a CPU's verdict)
 * @param thread the pinned thread's name ("" for a CPU's verdict)
 * @param tid the pinned thread's kernel id (-1 for a CPU's verdict)
 * @param cpu the CPU it is pinned to, or the audited CPU
 * @param mask the CPUs the kernel allows the thread on (MOVED, REPINNED, NOT_REPINNED, REPLANNED);
 *     else empty
 * @param detail one line for people: the lease's reason, the refusal, the intruders
 */
public record WatchEvent(
    Kind kind,
    Instant at,
    String group,
    String member,
    String thread,
    int tid,
    int cpu,
    CpuSet mask,
    String detail) {
  /** What changed. */
  public enum Kind {
    /** A pinned thread is allowed on other CPUs than its own ({@link CpuLease#check()}). */
    MOVED,
    /** The reservation of a pinned thread's CPU was lost ({@link CpuLease#verify()}). */
    LOST,
    /** A moved thread was bound to its CPU again ({@link RepinPolicy#REPIN}). */
    REPINNED,
    /**
     * A moved thread could not be bound to its CPU again: its CPU is gone, or the kernel refused.
     */
    NOT_REPINNED,
    /**
     * A moved thread whose CPU is gone was bound to another CPU its group reserved for it, within
     * the CPUs the kernel allows ({@link RepinPolicy#REPLAN}); the event's CPU is the new one.
     */
    REPLANNED,
    /** An audit found intruders on a pinned CPU (first seen so, or after EXCLUSIVE or UNKNOWN). */
    INTRUDED,
    /** An audit found a pinned CPU exclusive again after INTRUDED or UNKNOWN. */
    EXCLUSIVE,
    /** An audit could not tell (the CPU went offline, no procfs), after another verdict. */
    UNKNOWN
  }

  /**
   * Validates.
   *
   * @param kind what changed; not null
   * @param at when the check found it; not null
   * @param group the lease's group; not null
   * @param member the lease's member; not null
   * @param thread the pinned thread's name; not null
   * @param tid the pinned thread's kernel id, -1 for a CPU's verdict
   * @param cpu the CPU, 0-based
   * @param mask the CPUs the kernel allows the thread on, or empty; not null
   * @param detail one line for people; not null
   */
  public WatchEvent {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(member, "member");
    Objects.requireNonNull(thread, "thread");
    Objects.requireNonNull(mask, "mask");
    Objects.requireNonNull(detail, "detail");
  }

  /** An event about a lease. */
  static WatchEvent of(Kind kind, Instant at, CpuLease lease, CpuSet mask, String detail) {
    return new WatchEvent(
        kind,
        at,
        lease.group(),
        lease.member(),
        lease.threadName(),
        lease.tid(),
        lease.cpu(),
        mask,
        detail);
  }

  @Override
  public String toString() {
    String who = tid < 0 ? "cpu " + cpu : thread + " (tid " + tid + ", cpu " + cpu + ")";
    return kind + " " + who + (mask.isEmpty() ? "" : " allowed on " + mask) + ": " + detail;
  }
}
