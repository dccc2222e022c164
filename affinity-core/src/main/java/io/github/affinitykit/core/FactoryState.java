package io.github.affinitykit.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The planning and reservation state behind one {@link PinnedThreadFactory}: which CPUs its live
 * threads hold (reference-counted, so that threads sharing a CPU under {@link RunOutPolicy#SHARE}
 * keep its reservation until the last one ends), and each thread's assignment.
 *
 * <p>Thread safety: all methods synchronise on the instance, except that each {@link Ticket} is
 * started by its own thread.
 */
final class FactoryState {
  /** One thread's place; fields change as the thread starts and ends. */
  static final class Ticket {
    private final int index;
    private final int cpu;
    private volatile String threadName;
    private volatile int tid = -1;
    private volatile LeaseStatus status;
    private volatile String reason;
    private volatile boolean started;

    Ticket(int index, String threadName, int cpu, LeaseStatus status, String reason) {
      this.index = index;
      this.threadName = threadName;
      this.cpu = cpu;
      this.status = status;
      this.reason = reason;
    }

    String threadName() {
      return threadName;
    }

    LeaseStatus status() {
      return status;
    }

    String reason() {
      return reason;
    }

    Assignment assignment() {
      return new Assignment(threadName, tid, cpu, status, reason);
    }
  }

  private final AffinityKit kit;
  private final CpuSet pool;
  private final List<Placement> placements;
  private final RunOutPolicy runOut;
  private final Planner planner;
  private final List<Ticket> tickets = new ArrayList<>();
  private final Map<Integer, Reservation> held = new HashMap<>();
  private final Map<Integer, Integer> load = new HashMap<>();
  private int previous = -1;

  FactoryState(AffinityKit kit, CpuSet pool, List<Placement> placements, RunOutPolicy runOut) {
    this.kit = kit;
    this.pool = pool;
    this.placements = List.copyOf(placements);
    this.runOut = runOut;
    this.planner = new Planner(kit.host().topology());
  }

  synchronized Ticket next(String name) {
    int index = tickets.size();
    String threadName = name + "-" + index;
    Ticket t;
    if (!kit.backend().isSupported()) {
      t = new Ticket(index, threadName, -1, LeaseStatus.UNSUPPORTED, kit.backend().reason());
    } else {
      t = reserve(index, name, threadName);
    }
    tickets.add(t);
    return t;
  }

  private Ticket reserve(int index, String name, String threadName) {
    CpuSet live = CpuSet.of(held.keySet().stream().mapToInt(Integer::intValue).toArray());
    CpuSet busy = CpuSet.empty();
    List<ReservationResult> failures = new ArrayList<>();
    while (true) {
      CpuSet free = pool.minus(busy).minus(live);
      Plan.Slot s = planner.next(index, pool, free, busy, live, previous, placements);
      if (!s.placed()) {
        String placement = free.isEmpty() ? "" : s.reason();
        return runOut(
            index, name, threadName, live, RunOutReason.of(pool, live, placement, failures));
      }
      ReservationResult r = kit.reservations().tryReserve(s.cpu());
      if (r.isReserved()) {
        held.put(s.cpu(), r.orElseThrow());
        load.put(s.cpu(), 1);
        previous = s.cpu();
        return new Ticket(index, threadName, s.cpu(), LeaseStatus.PINNED, s.reason());
      }
      busy = busy.union(CpuSet.of(s.cpu()));
      failures.add(r);
    }
  }

  private Ticket runOut(int index, String name, String threadName, CpuSet live, String why) {
    String message =
        name + ": no CPU of pool " + pool + " left for " + threadName + " (" + why + ")";
    if (runOut == RunOutPolicy.FAIL) {
      throw new IllegalStateException(message + "; run-out policy FAIL");
    }
    if (runOut == RunOutPolicy.SHARE && !live.isEmpty()) {
      int cpu = live.first();
      for (int c = live.first(); c >= 0; c = live.next(c + 1)) {
        if (load.get(c) < load.get(cpu)) {
          cpu = c;
        }
      }
      load.merge(cpu, 1, Integer::sum);
      return new Ticket(
          index,
          threadName,
          cpu,
          LeaseStatus.SHARED,
          "shares cpu " + cpu + " (run-out policy SHARE)");
    }
    return new Ticket(index, threadName, -1, LeaseStatus.UNPINNED, message);
  }

  synchronized void named(Ticket t, String threadName) {
    t.threadName = threadName;
  }

  /** Runs in the new thread, before its task: binds it, or resets an inherited mask. */
  CpuLease start(Ticket t) {
    return start(t, () -> {});
  }

  /**
   * Binds the calling thread to the ticket's CPU (or resets an inherited mask); {@code onClose}
   * runs when the returned lease is closed, whatever became of the binding.
   */
  CpuLease start(Ticket t, Runnable onClose) {
    AffinityBackend backend = kit.backend();
    t.started = true;
    try {
      t.tid = backend.currentThreadId();
      if (t.status == LeaseStatus.PINNED || t.status == LeaseStatus.SHARED) {
        CpuLease lease = kit.bindCurrent(t.cpu, Optional.empty(), t.status, onClose);
        if (!lease.isBound()) {
          t.status = lease.status();
          t.reason = lease.reason();
          resetMask(backend);
        }
        return lease;
      }
      resetMask(backend);
      return CpuLease.unbound(backend, t.tid, t.status, t.reason, onClose);
    } catch (RuntimeException e) {
      t.status = LeaseStatus.FAILED;
      t.reason = "pinning failed: " + e;
      return CpuLease.unbound(backend, t.tid, LeaseStatus.FAILED, t.reason, onClose);
    }
  }

  /** An unpinned thread must not keep a pinned creator's single CPU. */
  private void resetMask(AffinityBackend backend) {
    if (backend.isSupported()) {
      CpuSet all = kit.host().reachable();
      if (!backend.getAffinity(0).equals(all)) {
        backend.setAffinity(0, all);
      }
    }
  }

  synchronized void ended(Ticket t) {
    t.status = LeaseStatus.RELEASED;
    unload(t.cpu);
  }

  private void unload(int cpu) {
    if (cpu >= 0 && load.merge(cpu, -1, Integer::sum) == 0) {
      load.remove(cpu);
      held.remove(cpu).close();
    }
  }

  synchronized void releaseUnstarted() {
    for (Ticket t : tickets) {
      if (!t.started && t.status != LeaseStatus.RELEASED) {
        t.status = LeaseStatus.RELEASED;
        t.reason = "never started; freed by close()";
        unload(t.cpu);
      }
    }
  }

  synchronized List<Assignment> assignments() {
    List<Assignment> out = new ArrayList<>();
    tickets.forEach(t -> out.add(t.assignment()));
    return out;
  }
}
