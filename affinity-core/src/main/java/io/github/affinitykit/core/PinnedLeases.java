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
 * registry that audits, the watchdog and metrics read through the kit. A lease joins when its
 * thread is bound and leaves when it is closed.
 *
 * <p>Thread safety: safe for concurrent use; every accessor returns a snapshot or a counter. Each
 * accessor is documented where the kit exposes it.
 */
final class PinnedLeases {
  private final AffinityBackend backend;
  private final Map<Integer, CpuLease> open = new ConcurrentHashMap<>();
  private final AtomicLong moved = new AtomicLong();
  private final AtomicLong lost = new AtomicLong();

  PinnedLeases(AffinityBackend backend) {
    this.backend = Objects.requireNonNull(backend, "backend");
  }

  List<CpuLease> all() {
    record Keyed(int cpu, CpuLease lease) {} // a re-plan may change a CPU while this sorts
    return open.values().stream()
        .map(l -> new Keyed(l.cpu(), l))
        .sorted(Comparator.comparingInt(Keyed::cpu).thenComparingInt(k -> k.lease().tid()))
        .map(Keyed::lease)
        .toList();
  }

  Set<Integer> threadIds() {
    return Set.copyOf(open.keySet());
  }

  Optional<CpuLease> of(int tid) {
    return Optional.ofNullable(open.get(tid));
  }

  /** {@return the calling thread's open lease: where an idle strategy's thread runs} */
  Optional<CpuLease> current() {
    if (open.isEmpty() || !backend.isSupported()) {
      return Optional.empty();
    }
    return of(backend.currentThreadId());
  }

  long movedTotal() {
    return moved.get();
  }

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
