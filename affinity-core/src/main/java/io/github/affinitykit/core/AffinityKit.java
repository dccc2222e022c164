package io.github.affinitykit.core;

import io.github.affinitykit.core.host.CpuPool;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.observe.CpuAudit;
import io.github.affinitykit.core.observe.JvmThreads;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.placement.Planner;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.reservation.Reservation;
import io.github.affinitykit.core.reservation.ReservationResult;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The entry point: one host snapshot, one backend, one reservation directory, one pool, and the
 * registry of the threads this library has pinned (so that {@link JvmThreads} leaves them alone).
 *
 * <pre>{@code
 * AffinityKit kit = AffinityKit.shared();
 * try (CpuLease lease = kit.pinCurrentThread()) {
 *   System.out.println(lease.status() + " " + lease.cpu() + ": " + lease.reason());
 * }
 * }</pre>
 *
 * <p>Thread safety: safe for concurrent use by any number of threads.
 */
public final class AffinityKit {
  private static AffinityKit shared; // guarded by AffinityKit.class

  private final HostCpus host;
  private final AffinityBackend backend;
  private final CpuReservations reservations;
  private final CpuPool pool;
  private final Map<Integer, CpuLease> pinned = new ConcurrentHashMap<>();

  private AffinityKit(
      HostCpus host, AffinityBackend backend, CpuReservations reservations, CpuPool pool) {
    this.host = Objects.requireNonNull(host, "host");
    this.backend = Objects.requireNonNull(backend, "backend");
    this.reservations = Objects.requireNonNull(reservations, "reservations");
    this.pool = Objects.requireNonNull(pool, "pool");
  }

  /**
   * Returns the JVM-wide kit, created on first use: probes this host (capture it before pinning
   * anything), detects the backend, reserves in {@code java.io.tmpdir}, pool by policy.
   *
   * @throws IllegalArgumentException if a configured pool override is invalid
   */
  public static synchronized AffinityKit shared() {
    if (shared == null) {
      shared =
          create(HostCpus.probe(), AffinityBackend.detect(), CpuReservations.inTempDirectory());
    }
    return shared;
  }

  /** Creates a kit from explicit parts, with the pool chosen by policy (and overrides). */
  public static AffinityKit create(
      HostCpus host, AffinityBackend backend, CpuReservations reservations) {
    return new AffinityKit(host, backend, reservations, host.pool());
  }

  /** Creates a kit from explicit parts and pool (tests, and callers with their own policy). */
  public static AffinityKit create(
      HostCpus host, AffinityBackend backend, CpuReservations reservations, CpuPool pool) {
    return new AffinityKit(host, backend, reservations, pool);
  }

  /** Returns the host snapshot. */
  public HostCpus host() {
    return host;
  }

  /** Returns the backend. */
  public AffinityBackend backend() {
    return backend;
  }

  /** Returns the cross-process reservations. */
  public CpuReservations reservations() {
    return reservations;
  }

  /** Returns the pool pinned threads are given CPUs from. */
  public CpuPool pool() {
    return pool;
  }

  /** Returns the kernel thread ids of the threads currently pinned through this kit. */
  public Set<Integer> pinnedThreadIds() {
    return Set.copyOf(pinned.keySet());
  }

  /**
   * Reserves the first free CPU of the pool, in the pool's order (CPUs on cores wholly inside the
   * pool first: {@link Planner#order(CpuSet)}), and binds the calling thread to it. Never throws
   * for a platform or kernel refusal: the lease's status and reason say what happened.
   */
  public CpuLease pinCurrentThread() {
    if (!backend.isSupported()) {
      return CpuLease.unbound(backend, -1, LeaseStatus.UNSUPPORTED, backend.reason());
    }
    ReservationResult r =
        reservations.reserveFirstFreeInOrder(new Planner(host.topology()).order(pool.cpus()));
    if (!r.isReserved()) {
      return CpuLease.unbound(backend, backend.currentThreadId(), LeaseStatus.UNPINNED, r.reason());
    }
    return bindCurrent(r.cpu(), r.reservation(), LeaseStatus.PINNED);
  }

  /**
   * Reserves {@code cpu} and binds the calling thread to it.
   *
   * @throws IllegalArgumentException if {@code cpu} is not one this process may use
   */
  public CpuLease pinCurrentThread(int cpu) {
    if (!host.reachable().contains(cpu)) {
      throw new IllegalArgumentException(
          "cpu: "
              + cpu
              + " (expected: one of the CPUs this process may use: "
              + host.reachable()
              + ")");
    }
    if (!backend.isSupported()) {
      return CpuLease.unbound(backend, -1, LeaseStatus.UNSUPPORTED, backend.reason());
    }
    ReservationResult r = reservations.tryReserve(cpu);
    if (!r.isReserved()) {
      return CpuLease.unbound(backend, backend.currentThreadId(), LeaseStatus.UNPINNED, r.reason());
    }
    return bindCurrent(cpu, r.reservation(), LeaseStatus.PINNED);
  }

  /**
   * Binds the calling thread to the CPU of a reservation the caller already holds, without taking
   * it over: closing the returned lease restores the thread's previous mask and leaves {@code
   * reservation} held. For groups that keep their CPUs reserved for their whole life while their
   * threads come and go (Netty event loops resumed on a new thread).
   *
   * @throws IllegalArgumentException if {@code reservation} was not made in this kit's directory
   * @throws IllegalStateException if {@code reservation} is already closed
   */
  public CpuLease bindCurrentThread(Reservation reservation) {
    Objects.requireNonNull(reservation, "reservation");
    if (!reservation.lockFile().equals(reservations.lockFile(reservation.cpu()))) {
      throw new IllegalArgumentException(
          "reservation: "
              + reservation
              + " (expected: a reservation in this kit's directory "
              + reservations.directory()
              + ")");
    }
    if (!reservation.isHeld()) {
      throw new IllegalStateException(
          "reservation: " + reservation + " (expected: held, not closed)");
    }
    if (!backend.isSupported()) {
      return CpuLease.unbound(backend, -1, LeaseStatus.UNSUPPORTED, backend.reason());
    }
    return bindCurrent(reservation.cpu(), Optional.empty(), LeaseStatus.PINNED);
  }

  /** Binds the calling thread to {@code cpu} under an existing (or no) reservation. */
  CpuLease bindCurrent(int cpu, Optional<Reservation> reservation, LeaseStatus as) {
    return bindCurrent(cpu, reservation, as, () -> {});
  }

  /** As {@link #bindCurrent(int, Optional, LeaseStatus)}; {@code then} runs when it is closed. */
  CpuLease bindCurrent(int cpu, Optional<Reservation> reservation, LeaseStatus as, Runnable then) {
    int tid = backend.currentThreadId();
    AtomicReference<CpuLease> self = new AtomicReference<>();
    Runnable onClose =
        () -> {
          pinned.remove(tid, self.get());
          then.run();
        };
    CpuLease lease = CpuLease.bind(backend, tid, cpu, reservation, as, onClose);
    self.set(lease);
    if (lease.isBound()) {
      pinned.put(tid, lease);
    }
    return lease;
  }

  /**
   * Audits {@code cpus} over {@code window}, the threads pinned through this kit being their
   * owners: everything else seen there is an intruder. Blocks for the window.
   */
  public CpuAudit audit(CpuSet cpus, java.time.Duration window) {
    return CpuAudit.run(java.nio.file.Path.of("/"), host, cpus, window, pinnedOrNone());
  }

  private Set<Integer> pinnedOrNone() {
    Set<Integer> tids = pinnedThreadIds();
    return tids.isEmpty() ? Set.of(-1) : tids; // empty would mean "guess the owners"
  }

  /** Returns a builder of pinned thread factories drawing from this kit's pool. */
  public PinnedThreadFactory.Builder threadFactory(String name) {
    return PinnedThreadFactory.builder(this, name);
  }

  /** Returns a builder of a {@link CpuGroup} drawing from this kit's pool. */
  public CpuGroupBuilder group(String name) {
    return CpuGroup.builder(this, name);
  }

  @Override
  public String toString() {
    return "AffinityKit[pool=" + pool.cpus() + ", backend=" + backend.reason() + "]";
  }
}
