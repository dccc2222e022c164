package io.github.affinitykit.core;

import io.github.affinitykit.core.os.AffinityBackend;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The open leases of one {@link AffinityKit}, by thread, and what checks found of them: the one
 * registry that audits (affinity-audit's {@code JvmThreads}, {@link AffinityKit#audit}), the
 * watchdog and metrics read through the kit ({@link AffinityKit#leases()} and its neighbours). A
 * lease joins when its thread is bound to a CPU and leaves when it is closed.
 *
 * <p>Thread safety: safe for concurrent use; every accessor returns a snapshot or a counter.
 */
final class PinnedLeases {
  private final AffinityBackend backend;
  private final Map<Integer, CpuLease> open = new ConcurrentHashMap<>();
  private final AtomicLong moved = new AtomicLong();
  private final AtomicLong lost = new AtomicLong();

  PinnedLeases(AffinityBackend backend) {
    this.backend = Objects.requireNonNull(backend, "backend");
  }

  /**
   * Returns the open leases, by CPU then thread id.
   *
   * @return an immutable snapshot
   */
  List<CpuLease> all() {
    return open.values().stream()
        .sorted(Comparator.comparingInt(CpuLease::cpu).thenComparingInt(CpuLease::tid))
        .toList();
  }

  /**
   * Returns the kernel thread ids of the pinned threads.
   *
   * @return an immutable copy
   */
  Set<Integer> threadIds() {
    return Set.copyOf(open.keySet());
  }

  /**
   * Returns the open lease of thread {@code tid}.
   *
   * @param tid a kernel thread id ({@code gettid})
   * @return its lease until it is closed; empty if the kit holds none for it
   */
  Optional<CpuLease> of(int tid) {
    return Optional.ofNullable(open.get(tid));
  }

  /**
   * Returns the open lease of the calling thread: what an idle strategy or a wait policy asks to
   * learn where it runs.
   *
   * @return the calling thread's lease; empty if it holds none, or the platform cannot tell its id
   */
  Optional<CpuLease> current() {
    if (open.isEmpty() || !backend.isSupported()) {
      return Optional.empty();
    }
    return of(backend.currentThreadId());
  }

  /**
   * Returns how many leases {@link CpuLease#check()} has found {@link LeaseStatus#MOVED}.
   *
   * @return a monotonic count since the kit was made
   */
  long movedTotal() {
    return moved.get();
  }

  /**
   * Returns how many leases {@link CpuLease#verify()} has found {@link LeaseStatus#LOST}.
   *
   * @return a monotonic count since the kit was made
   */
  long lostTotal() {
    return lost.get();
  }

  void add(CpuLease lease) {
    open.put(lease.tid(), lease);
  }

  void remove(CpuLease lease) {
    open.remove(lease.tid(), lease);
  }

  void countMoved() {
    moved.incrementAndGet();
  }

  void countLost() {
    lost.incrementAndGet();
  }

  @Override
  public String toString() {
    return "PinnedLeases[" + open.size() + " open, moved " + moved + ", lost " + lost + "]";
  }
}
