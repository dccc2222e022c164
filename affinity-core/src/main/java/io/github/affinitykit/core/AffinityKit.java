package io.github.affinitykit.core;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuTopology;
import io.github.affinitykit.core.host.CpuPool;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.reservation.ReservationResult;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * The entry point: one host snapshot, one backend, one reservation directory, one pool, and the
 * registry of the threads this library has pinned (an audit's owners).
 *
 * <p>Thread safety: safe for concurrent use by any number of threads.
 */
public final class AffinityKit {
  private static AffinityKit shared; // guarded by AffinityKit.class

  private final HostCpus host;
  private final AffinityBackend backend;
  private final CpuReservations reservations;
  private final CpuPool pool;
  private final AtomicReference<CpuIsolator> isolator;
  private final AtomicReference<CpuAuditor> auditor = new AtomicReference<>();
  private final PinnedLeases pinned;
  private final AtomicReference<CpuIsolation> isolation = new AtomicReference<>();

  private AffinityKit(
      HostCpus host,
      AffinityBackend backend,
      CpuReservations reservations,
      CpuPool pool,
      CpuIsolator isolator) {
    this.host = Objects.requireNonNull(host, "host");
    this.backend = Objects.requireNonNull(backend, "backend");
    this.reservations = Objects.requireNonNull(reservations, "reservations");
    this.pool = Objects.requireNonNull(pool, "pool");
    this.isolator = new AtomicReference<>(isolator); // null: found on first use
    this.pinned = new PinnedLeases(backend);
  }

  /**
   * {@return the one JVM-wide kit, made on first use} Probed host, detected backend, the configured
   * lock directory ({@link CpuReservations#inConfiguredDirectory()}), pool by policy.
   *
   * @throws IllegalArgumentException if a configured pool override or lock directory is invalid
   */
  public static synchronized AffinityKit shared() {
    if (shared == null) {
      shared =
          create(
              HostCpus.probe(), AffinityBackend.detect(), CpuReservations.inConfiguredDirectory());
    }
    return shared;
  }

  /**
   * {@return a new kit from explicit parts, its pool {@code host.pool()}}
   *
   * @param host the host snapshot; probe it before pinning anything
   * @param backend the backend pinning goes through
   * @param reservations where CPUs are reserved across processes
   */
  public static AffinityKit create(
      HostCpus host, AffinityBackend backend, CpuReservations reservations) {
    return new AffinityKit(host, backend, reservations, host.pool(), null);
  }

  /**
   * {@return a new kit from explicit parts and pool}
   *
   * @param host the host snapshot; probe it before pinning anything
   * @param backend the backend pinning goes through
   * @param reservations where CPUs are reserved across processes
   * @param pool the CPUs pinned threads are given unless a group sets its own
   */
  public static AffinityKit create(
      HostCpus host, AffinityBackend backend, CpuReservations reservations, CpuPool pool) {
    return new AffinityKit(host, backend, reservations, pool, null);
  }

  /**
   * {@return a new kit whose isolations (its own and its groups') go through {@code isolator}}
   *
   * @param host the host snapshot; probe it before pinning anything
   * @param backend the backend pinning goes through
   * @param reservations where CPUs are reserved across processes
   * @param pool the CPUs pinned threads are given unless a group sets its own
   * @param isolator used instead of the one {@link java.util.ServiceLoader} finds
   */
  public static AffinityKit create(
      HostCpus host,
      AffinityBackend backend,
      CpuReservations reservations,
      CpuPool pool,
      CpuIsolator isolator) {
    return new AffinityKit(
        host, backend, reservations, pool, Objects.requireNonNull(isolator, "isolator"));
  }

  /** {@return the host snapshot the kit was made with; never refreshed} */
  public HostCpus host() {
    return host;
  }

  /** {@return the backend every pin and mask read of this kit goes through} */
  public AffinityBackend backend() {
    return backend;
  }

  /** {@return the cross-process reservations this kit reserves CPUs in} */
  public CpuReservations reservations() {
    return reservations;
  }

  /** {@return the pool of every group of this kit that does not set its own} */
  public CpuPool pool() {
    return pool;
  }

  /**
   * {@return the open leases of this kit's pinned threads: an immutable snapshot, by CPU then
   * thread id} A lease joins when its thread is bound and leaves when it is closed.
   */
  public List<CpuLease> leases() {
    return pinned.all();
  }

  /**
   * {@return the open lease of thread {@code tid}; empty if the kit holds none for it}
   *
   * @param tid a kernel thread id ({@code gettid})
   */
  public Optional<CpuLease> lease(int tid) {
    return pinned.of(tid);
  }

  /** {@return the calling thread's open lease; empty if it holds none, or its id is unknown} */
  public Optional<CpuLease> currentLease() {
    return pinned.current();
  }

  /** {@return the kernel thread ids of the threads pinned through this kit now: a copy} */
  public Set<Integer> pinnedThreadIds() {
    return pinned.threadIds();
  }

  /**
   * {@return how many of this kit's leases {@link CpuLease#check()} has found {@link
   * LeaseStatus#MOVED}} A monotonic counter for metrics, since the kit was made.
   */
  public long movedTotal() {
    return pinned.movedTotal();
  }

  /**
   * {@return how many of this kit's leases {@link CpuLease#verify()} has found {@link
   * LeaseStatus#LOST}} A monotonic counter for metrics, since the kit was made.
   */
  public long lostTotal() {
    return pinned.lostTotal();
  }

  /** The registry the seats and leases join, leave and count in. */
  PinnedLeases pinned() {
    return pinned;
  }

  /**
   * Reserves the first free CPU of the pool, in {@link CpuPool#order(CpuTopology)}, and binds the
   * calling thread to it. Never throws for a platform or kernel refusal: the lease's status and
   * reason say what happened (UNPINNED, the mask left as it is, when no CPU is free).
   *
   * @return the lease to close when done, which frees the CPU; never null
   */
  public CpuLease pinCurrentThread() {
    return solo().join().bindOnce();
  }

  /**
   * Reserves {@code cpu} and binds the calling thread to it; when the CPU is held (by another
   * process, or already by this JVM) the lease is UNPINNED with the reservation's reason.
   *
   * @param cpu the CPU, 0-based; one of {@link HostCpus#reachable()}
   * @return the lease to close when done, which frees the CPU; never null
   * @throws IllegalArgumentException if {@code cpu} is not one this process may use
   */
  public CpuLease pinCurrentThread(int cpu) {
    if (!host.reachable().contains(cpu)) {
      throw new IllegalArgumentException(
          String.format(
              "cpu: %d (expected: one of the CPUs this process may use: %s)",
              cpu, host.reachable()));
    }
    CpuGroup group = solo();
    Seat seat = group.joinOn("pin-" + cpu, cpu);
    ReservationResult refused = group.refused().get(cpu);
    if (refused == null) {
      return seat.bindOnce();
    }
    seat.close();
    return Seat.refused(group, "pin-" + cpu, refused.reason()).bindOnce();
  }

  /** One member per call (a CPU this JVM holds is refused, never shared); run-out: mask kept. */
  private CpuGroup solo() {
    return group("pin").unpinnedMask(CpuSet.empty()).build();
  }

  /**
   * Audits {@code cpus} over {@code window} with the {@link CpuAuditor} that {@link
   * java.util.ServiceLoader} finds (affinity-audit), this kit's pinned threads being the owners.
   * Blocks for the window. Without the artifact it returns at once: every CPU UNKNOWN.
   *
   * @param cpus the CPUs to audit
   * @param window how long to watch them; positive
   * @return an answer for each CPU of {@code cpus}
   * @throws IllegalArgumentException if the window is not positive
   */
  public ExclusivityAudit audit(CpuSet cpus, java.time.Duration window) {
    return auditor().audit(host, cpus, window, pinnedOrNone());
  }

  /** The auditor ServiceLoader finds at the first audit; else one saying it is missing. */
  CpuAuditor auditor() {
    return auditor.updateAndGet(a -> a != null ? a : NoAudit.find());
  }

  private Set<Integer> pinnedOrNone() {
    Set<Integer> tids = pinnedThreadIds();
    return tids.isEmpty() ? Set.of(-1) : tids; // empty would mean "guess the owners"
  }

  /**
   * Makes {@code cpus} exclusive to this kit's threads pinned there, at runtime, with the kit's
   * isolator (given to {@code create}, else affinity-isolation's); threads pinned there later are
   * let in as they bind. It changes the whole machine: call it only where a person asked. A missing
   * permission or artifact, or a kernel refusal, makes the handle inactive, saying why.
   *
   * @param cpus the CPUs to isolate: online, and not every online CPU
   * @return the handle: its reason says what was done or why not; closing it undoes it
   * @throws IllegalArgumentException if {@code cpus} is empty, not online, or leaves no CPU
   */
  public CpuIsolation isolate(CpuSet cpus) {
    CpuIsolator i = isolator.get();
    if (i == null) {
      isolator.compareAndSet(null, NoIsolation.find(backend));
      i = isolator.get();
    }
    return isolate(cpus, i);
  }

  /**
   * As {@link #isolate(CpuSet)}, with {@code isolator} instead of the kit's own.
   *
   * @param cpus the CPUs to isolate: online, and not every online CPU
   * @param isolator the isolator to use instead of the kit's own
   * @return the handle: its reason says what was done or why not; closing it undoes it
   */
  public CpuIsolation isolate(CpuSet cpus, CpuIsolator isolator) {
    Set<Integer> owners =
        pinned.all().stream()
            .filter(l -> cpus.contains(l.cpu()))
            .map(CpuLease::tid)
            .collect(Collectors.toSet());
    CpuIsolation made = isolator.isolate(cpus, owners);
    if (made.isActive()) {
      isolation.set(made);
    }
    return made;
  }

  /** {@return the last isolation this kit made while it is in force; else empty} */
  public Optional<CpuIsolation> isolation() {
    return Optional.ofNullable(isolation.get()).filter(CpuIsolation::isActive);
  }

  /** Before a seat binds {@code tid} to {@code cpu}: an isolated CPU lets it in; "" or why not. */
  String admit(int tid, int cpu) {
    return isolation()
        .filter(i -> i.cpus().contains(cpu))
        .flatMap(i -> i.letIn(tid))
        .map(why -> "isolation refused the thread: " + why)
        .orElse("");
  }

  /** Called by a lease once it restored its thread's mask: off the isolated CPUs again. */
  void dismiss(int tid, int cpu) {
    isolation().filter(i -> i.cpus().contains(cpu)).ifPresent(i -> i.letOut(tid));
  }

  /**
   * {@return a new builder of a {@link CpuGroup} drawing from this kit's pool}
   *
   * @param name the group's name, also the prefix of its members' default names
   */
  public CpuGroupBuilder group(String name) {
    return CpuGroup.builder(this, name);
  }

  @Override
  public String toString() {
    return "AffinityKit[pool=" + pool.cpus() + ", backend=" + backend.reason() + "]";
  }
}
