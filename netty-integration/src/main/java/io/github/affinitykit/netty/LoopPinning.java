package io.github.affinitykit.netty;

import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.Seat;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The Netty adapter over a {@link CpuGroup}: one seat per loop, taken when the group is created and
 * kept for its life, and the executor wrapper that makes every thread running loop {@code i} bind
 * seat {@code i} before the loop runs (again for a new thread after a suspend/resume). Planning,
 * reservation, run-out and binding are the group's.
 *
 * <p>It travels through Netty's constructor {@code Object... args} into {@code newChild}, which
 * Netty calls once per loop in index order, from the group's constructor.
 *
 * <p>Thread safety: {@link #wrap} is called by the group's constructor; the wrapped executors,
 * {@link #assignments()} and {@link #release()} may be used from any thread.
 */
final class LoopPinning {
  private static final System.Logger LOG = System.getLogger(LoopPinning.class.getName());

  private final CpuGroup group;
  private final List<Seat> seats;
  private final AtomicInteger nextChild = new AtomicInteger();

  private LoopPinning(CpuGroup group, List<Seat> seats) {
    this.group = group;
    this.seats = List.copyOf(seats);
  }

  /**
   * Takes a seat for each of {@code loops} loops of group {@code name}.
   *
   * @throws IllegalArgumentException if {@code loops} is not positive, or explicit CPUs are not one
   *     per loop among the CPUs this process may use
   * @throws IllegalStateException if a loop gets no CPU and the run-out policy is FAIL
   */
  static LoopPinning plan(String name, int loops, PinningSpec spec) {
    Objects.requireNonNull(spec, "spec");
    if (loops <= 0) {
      throw new IllegalArgumentException(name + ": loops: " + loops + " (expected: > 0)");
    }
    checkExplicit(name, loops, spec);
    CpuGroup group = spec.group(name);
    List<Seat> seats = new ArrayList<>();
    try {
      for (int i = 0; i < loops; i++) {
        seats.add(
            spec.cpus().isEmpty()
                ? group.join()
                : group.joinOn(name + "-" + i, spec.cpus().get(i)));
      }
    } catch (RuntimeException e) {
      group.close();
      throw e;
    }
    long unpinned = seats.stream().filter(s -> s.status() == LeaseStatus.UNPINNED).count();
    if (spec.enabled() && unpinned > 0) {
      LOG.log(
          Level.WARNING,
          "{0}: {1} of {2} loops unpinned: {3}",
          name,
          unpinned,
          loops,
          seats.get(loops - 1).reason());
    }
    return new LoopPinning(group, seats);
  }

  private static void checkExplicit(String name, int loops, PinningSpec spec) {
    List<Integer> cpus = spec.cpus();
    if (cpus.isEmpty() || !spec.enabled()) {
      return;
    }
    CpuSet named = CpuSet.of(cpus.stream().mapToInt(Integer::intValue).toArray());
    CpuSet reachable = spec.kit().orElseThrow().host().reachable();
    if (cpus.size() != loops || !reachable.containsAll(named)) {
      throw new IllegalArgumentException(
          name
              + ": cpus: "
              + cpus
              + " (expected: "
              + loops
              + " CPUs, one per loop, among the CPUs this process may use: "
              + reachable
              + ")");
    }
  }

  String name() {
    return group.name();
  }

  int size() {
    return seats.size();
  }

  /** Returns the index of the next child Netty creates (0, 1, ... in its constructor). */
  int nextChild() {
    return nextChild.getAndIncrement();
  }

  /** Wraps loop {@code index}'s executor: each thread it starts binds the loop's seat first. */
  Executor wrap(int index, Executor delegate) {
    Objects.requireNonNull(delegate, "delegate");
    Seat seat = seats.get(index);
    return task ->
        delegate.execute(
            () -> {
              CpuLease lease = seat.bind();
              try {
                task.run();
              } finally {
                lease.close();
              }
            });
  }

  /** Returns every loop's assignment, in loop order. */
  List<LoopAssignment> assignments() {
    List<LoopAssignment> out = new ArrayList<>();
    for (int i = 0; i < seats.size(); i++) {
      Seat s = seats.get(i);
      out.add(
          new LoopAssignment(
              name(),
              i,
              s.cpu(),
              s.status(),
              s.reason(),
              s.thread(),
              s.tid(),
              s.starts(),
              s.isBound()));
    }
    return out;
  }

  /**
   * Frees the group's CPUs once all its loops have terminated: at once, not when each thread gets
   * round to closing its lease (Netty completes the termination future before that). Idempotent.
   */
  void release() {
    group.close();
    seats.forEach(Seat::close);
  }
}
