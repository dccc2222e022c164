package io.github.affinitykit.netty;

import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.Seat;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where one loop of a pinned group runs: its planned CPU, what became of the pinning, and the
 * thread that runs it now (Netty 4.2 may suspend a loop and resume it on a new thread: {@code
 * starts} counts them).
 *
 * <p>Thread safety: immutable (a snapshot; ask the group again for news).
 *
 * @param group the group's name ({@code boss}, {@code worker}, ...)
 * @param index the loop's index in its group
 * @param cpu the CPU it is (or will be) bound to, -1 if none
 * @param status the seat's status now: PINNED, SHARED, UNPINNED, UNSUPPORTED, FAILED when the
 *     kernel refused, LOST when a check found its reservation lost, RELEASED once closed
 * @param reason the placement that chose the CPU, or why there is none
 * @param threadName the name of the thread running the loop, empty before it first started
 * @param tid that thread's kernel id, -1 before it started or where unknown
 * @param starts how many threads have run this loop so far
 * @param running whether a thread runs the loop at this moment
 */
public record LoopAssignment(
    String group,
    int index,
    int cpu,
    LeaseStatus status,
    String reason,
    String threadName,
    int tid,
    int starts,
    boolean running) {
  /**
   * Validates.
   *
   * @param group the group's name ({@code boss}, {@code worker}, ...); not null
   * @param index the loop's index in its group, 0-based
   * @param cpu the CPU it is (or will be) bound to, -1 if none
   * @param status the seat's {@link LeaseStatus}, e.g. PINNED, FAILED, RELEASED once shut down
   * @param reason the placement that chose the CPU, or why there is none; not null
   * @param threadName the running thread's name, empty before it first started; not null
   * @param tid that thread's kernel id, -1 before it started or where unknown
   * @param starts how many threads have run this loop so far, 0 before it first started
   * @param running whether a thread runs the loop at this moment
   */
  public LoopAssignment {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(threadName, "threadName");
  }

  /**
   * Returns loop {@code index} of group {@code group} as {@code seat} says now.
   *
   * @param group the group's name the loop is reported under; not null
   * @param index the loop's index in its group, 0-based
   * @param seat the loop's seat; {@code running} is its {@link Seat#isBound()}
   * @return a snapshot: it does not follow the seat's later changes
   */
  public static LoopAssignment of(String group, int index, Seat seat) {
    return new LoopAssignment(
        group,
        index,
        seat.cpu(),
        seat.status(),
        seat.reason(),
        seat.thread(),
        seat.tid(),
        seat.starts(),
        seat.isBound());
  }

  /** Returns the assignments of {@code seats}, loop {@code i} on the {@code i}-th seat. */
  static List<LoopAssignment> of(String group, List<Seat> seats) {
    List<LoopAssignment> out = new ArrayList<>();
    for (int i = 0; i < seats.size(); i++) {
      out.add(of(group, i, seats.get(i)));
    }
    return out;
  }

  /** Returns one line: {@code worker-0 cpu 1 PINNED (DIFFERENT_CORE) thread worker-3-1 tid 123}. */
  @Override
  public String toString() {
    return group
        + "-"
        + index
        + " cpu "
        + cpu
        + " "
        + status
        + " ("
        + reason
        + ")"
        + (threadName.isEmpty() ? " not started" : " thread " + threadName + " tid " + tid)
        + (starts > 1 ? ", " + starts + " threads so far" : "")
        + (running || starts == 0 ? "" : ", stopped");
  }
}
