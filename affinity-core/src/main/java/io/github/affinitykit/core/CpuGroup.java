package io.github.affinitykit.core;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.placement.RunOutPolicy;
import io.github.affinitykit.core.reservation.Reservation;
import io.github.affinitykit.core.reservation.ReservationResult;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.stream.IntStream;

/**
 * A group of threads placed together, and the one owner of the placement protocol: plan → reserve →
 * run out → bind. Every pinned thread of this library gets its CPU from a group.
 *
 * <p>{@link #join(String)} gives the next member a {@link Seat}; a CPU is held while any seat on it
 * is open. The group keeps only open seats.
 *
 * <p>Thread safety: safe for concurrent use; all methods serialise on the group. A {@link Seat} is
 * bound from the thread it pins (no lock: its state is one compare-and-set value) and may be closed
 * or read from any thread. Lock order: the group's monitor, then the {@code CpuReservations}' (a
 * seat's close frees its CPU under the group's monitor); never the other way round.
 */
public final class CpuGroup implements AutoCloseable {
  private final AffinityKit kit;
  private final String name;
  private final CpuSet pool;
  private final List<Integer> cpus;
  private final RunOutPolicy runOut;
  private final Optional<String> unpinned;
  private final CpuSet unpinnedMask;
  private final boolean isolate;
  private final Optional<ThreadMemoryPolicy> memoryPolicy;
  private final int count;
  private final String placedBy;
  private final Planner planner;
  private final GroupCpus held = new GroupCpus();
  private final Set<Seat> open = new LinkedHashSet<>();
  private int next;
  private boolean closed;
  private Optional<CpuIsolation> isolation = Optional.empty();

  /** Called by {@link CpuGroupBuilder#build()}, which has checked every CPU named. */
  CpuGroup(CpuGroupBuilder b) {
    this.kit = b.kit();
    this.name = b.name();
    this.pool = b.pool();
    this.cpus = b.cpuList();
    this.runOut = b.runOutPolicy();
    this.unpinned = b.unpinnedReason();
    this.unpinnedMask = b.resolvedMask();
    this.isolate = b.isolates();
    this.memoryPolicy = b.memory();
    this.count = b.countLimit();
    this.placedBy = b.placedBy();
    this.planner = new Planner(kit.host().topology(), pool, b.placementList(), b.wholeCoreSeats());
  }

  /**
   * {@return a builder of a group named {@code name} (members are named by the caller)}
   *
   * @param kit the kit whose host, backend, reservations and pool the group uses
   * @param name the group's name, also the prefix of its members' default names
   */
  public static CpuGroupBuilder builder(AffinityKit kit, String name) {
    return new CpuGroupBuilder(Objects.requireNonNull(kit, "kit"), name);
  }

  /** {@return the group's name, as given to the builder; it prefixes default member names} */
  public String name() {
    return name;
  }

  /** {@return the CPUs the group draws from: the builder's pool, else the kit's} */
  public CpuSet pool() {
    return pool;
  }

  /** {@return as {@link #join(String)}, the member named {@code <group name>-<index>}} */
  public synchronized Seat join() {
    return join(name + "-" + next);
  }

  /**
   * Plans, reserves and returns the next member's seat; when no CPU is left, the run-out policy
   * decides. With explicit CPUs ({@link CpuGroupBuilder#cpus(int...)}) member {@code i} takes
   * {@code cpus[i]}.
   *
   * @param member the member's name, for reports; not null
   * @return the member's seat: PINNED, SHARED, or without a CPU and saying why
   * @throws IllegalStateException if no CPU is left under {@link RunOutPolicy#FAIL}, the group is
   *     closed, or every explicit CPU has had its member
   */
  public synchronized Seat join(String member) {
    Seat seat = seat(member);
    isolateOnce(pool);
    return seat;
  }

  private Seat seat(String member) {
    if (!cpus.isEmpty()) {
      CpuGroupBuilder.checkNextExplicit(name, cpus, next);
      return seatOn(member, cpus.get(next));
    }
    Optional<Seat> unpinned = unpinnedSeat(member);
    if (unpinned.isPresent()) {
      return unpinned.get();
    }
    if (count > 0 && held.size() >= count) {
      return runOut(member, "count:" + count + " held: " + held());
    }
    List<ReservationResult> failures = new ArrayList<>();
    Optional<Reservation> r = reserveFree(pool, failures);
    return r.isPresent()
        ? hold(member, r.get(), planner.reason())
        : runOut(member, noneFree(pool, failures));
  }

  /** Plans and reserves a free CPU of {@code within} (of the pool); refusals go to failures. */
  private Optional<Reservation> reserveFree(CpuSet within, List<ReservationResult> failures) {
    CpuSet busy = pool.minus(within);
    for (int cpu = planner.next(held(), busy); cpu >= 0; cpu = planner.next(held(), busy)) {
      ReservationResult r = kit.reservations().tryReserve(cpu, planner.siblings(cpu));
      if (r.isReserved()) {
        return Optional.of(r.orElseThrow());
      }
      busy = busy.union(CpuSet.of(cpu));
      failures.add(r);
      held.refuse(r);
    }
    return Optional.empty();
  }

  /** Why {@link #reserveFree} found no CPU of {@code within}. */
  private String noneFree(CpuSet within, List<ReservationResult> failures) {
    CpuSet live = held();
    CpuSet tried = failures.stream().map(f -> CpuSet.of(f.cpu())).reduce(within, CpuSet::minus);
    return RunOutReason.of(
        within, live, tried.minus(live).isEmpty() ? "" : planner.reason(), failures);
  }

  /**
   * {@return a seat on {@code cpu} for the next member: SHARED with members already there, else
   * reserved; when another holds it, the run-out policy decides}
   *
   * @param member the member's name, for reports; not null
   * @param cpu the CPU, 0-based; one this process may use
   * @throws IllegalArgumentException if {@code cpu} is not one this process may use
   * @throws IllegalStateException if the CPU is taken and the run-out policy is {@link
   *     RunOutPolicy#FAIL}, or the group is closed
   */
  public synchronized Seat joinOn(String member, int cpu) {
    Seat seat = seatOn(member, cpu);
    isolateOnce(pool);
    return seat;
  }

  private Seat seatOn(String member, int cpu) {
    Optional<Seat> unpinned = unpinnedSeat(member);
    if (unpinned.isPresent()) {
      return unpinned.get();
    }
    CpuGroupBuilder.checkReachable(name, "cpu", CpuSet.of(cpu), kit.host().reachable());
    if (held.holds(cpu)) {
      held.share(cpu);
      return add(member, cpu, LeaseStatus.SHARED, "explicit cpu " + cpu + ", shared");
    }
    ReservationResult r = kit.reservations().tryReserve(cpu, planner.siblings(cpu));
    if (r.isReserved()) {
      return hold(member, r.orElseThrow(), "explicit cpu " + cpu);
    }
    held.refuse(r);
    return runOut(member, r.reason());
  }

  /**
   * Joins {@code members} members named {@code <group name>-<index>}, all or nothing: when one
   * cannot join, the seats already taken are closed and the exception rethrown.
   *
   * @param members how many members to seat; positive
   * @return the seats, in joining order; immutable
   * @throws IllegalArgumentException if {@code members} is not positive, or the group has explicit
   *     CPUs and {@code members} is not their number
   * @throws IllegalStateException as {@link #join(String)}
   */
  public synchronized List<Seat> joinAll(int members) {
    if (members <= 0) {
      throw new IllegalArgumentException(name + ": members: " + members + " (expected: > 0)");
    }
    return joinAll(IntStream.range(next, next + members).mapToObj(i -> name + "-" + i).toList());
  }

  /**
   * As {@link #joinAll(int)}, naming each member; a group asked to isolate ({@link
   * CpuGroupBuilder#isolate}) isolates the CPUs they hold once all are seated.
   *
   * @param members the members' names, in joining order; not empty
   * @return the seats, in the order of {@code members}; immutable
   * @throws IllegalArgumentException if {@code members} is empty, or the group has explicit CPUs
   *     and {@code members} is not their number
   * @throws IllegalStateException as {@link #join(String)}
   */
  public synchronized List<Seat> joinAll(List<String> members) {
    if (members.isEmpty()) {
      throw new IllegalArgumentException(name + ": members: 0 (expected: > 0)");
    }
    if (!cpus.isEmpty() && unpinned.isEmpty()) {
      CpuGroupBuilder.checkExplicit(name, cpus, members.size(), kit.host().reachable());
    }
    List<Seat> seats = new ArrayList<>();
    try {
      for (String member : members) {
        seats.add(seat(member));
      }
    } catch (RuntimeException e) {
      seats.forEach(Seat::close);
      throw e;
    }
    isolateOnce(held());
    return List.copyOf(seats);
  }

  /** A seat that pins nothing: the group is off, closed or the platform cannot pin. */
  private Optional<Seat> unpinnedSeat(String member) {
    Objects.requireNonNull(member, "member");
    if (closed) {
      throw new IllegalStateException(name + ": closed (expected: an open group to join)");
    }
    if (unpinned.isPresent()) {
      return Optional.of(add(member, -1, LeaseStatus.UNPINNED, unpinned.get()));
    }
    AffinityBackend backend = kit.backend();
    if (!backend.isSupported()) {
      return Optional.of(add(member, -1, LeaseStatus.UNSUPPORTED, backend.reason()));
    }
    return Optional.empty();
  }

  private Seat hold(String member, Reservation r, String why) {
    held.take(r);
    planner.placed(r.cpu());
    return add(member, r.cpu(), LeaseStatus.PINNED, why + planner.wholeCore(r.cpu()));
  }

  private Seat runOut(String member, String why) {
    String message = name + ": no CPU of pool " + pool + " left for " + member + " (" + why + ")";
    if (runOut == RunOutPolicy.FAIL) {
      next++;
      throw new IllegalStateException(message + "; run-out policy FAIL");
    }
    int cpu = held.leastLoaded();
    if (runOut == RunOutPolicy.SHARE && cpu >= 0) {
      held.share(cpu);
      return add(member, cpu, LeaseStatus.SHARED, "shares cpu " + cpu + " (run-out policy SHARE)");
    }
    String where = unpinnedMask.isEmpty() ? "the CPUs it inherits" : "CPUs " + unpinnedMask;
    return add(member, -1, LeaseStatus.UNPINNED, message + "; runs unpinned on " + where);
  }

  private Seat add(String member, int cpu, LeaseStatus status, String reason) {
    next++;
    Seat seat = new Seat(this, member, cpu, status, reason + placedBy);
    open.add(seat);
    return seat;
  }

  AffinityKit kit() {
    return kit;
  }

  CpuSet unpinnedMask() {
    return unpinnedMask;
  }

  Optional<ThreadMemoryPolicy> memoryPolicy() {
    return memoryPolicy;
  }

  /** The reservation of {@code cpu} while the group holds it. */
  synchronized Optional<Reservation> reservation(int cpu) {
    return held.reservation(cpu);
  }

  /** Re-plans {@code seat} off {@code from}, within {@code allowed}: "" or why not. */
  synchronized String replan(
      Seat seat, int from, CpuSet allowed, BiFunction<Reservation, String, String> bind) {
    if (closed || !open.contains(seat)) {
      return "the group or the seat is closed";
    }
    if (!held.alone(from)) {
      return "cpu " + from + " is shared with another seat: not re-planned";
    }
    CpuSet within = pool.intersect(allowed);
    List<ReservationResult> failures = new ArrayList<>();
    Optional<Reservation> r = reserveFree(within, failures); // as a new member's
    String why =
        r.isEmpty()
            ? "no CPU of pool " + pool + " within " + allowed + ": " + noneFree(within, failures)
            : bind.apply(r.get(), planner.reason() + planner.wholeCore(r.get().cpu()));
    if (!why.isEmpty()) {
      r.ifPresent(Reservation::close);
      return why;
    }
    held.take(r.get());
    held.leave(from); // once bound: the CPU that went away is freed
    return "";
  }

  /** Called by a seat's first close: frees its CPU once no other open seat is on it. */
  synchronized void left(Seat seat) {
    if (!open.remove(seat)) {
      return;
    }
    held.leave(seat.state().cpu());
    endIsolation();
  }

  /** Isolates {@code cpus} once, if the group was asked to ({@link CpuGroupBuilder#isolate}). */
  private void isolateOnce(CpuSet cpus) {
    if (isolate && isolation.isEmpty() && unpinned.isEmpty() && !cpus.isEmpty()) {
      isolation = Optional.of(kit.isolate(cpus));
    }
  }

  /**
   * {@return the runtime isolation of the group's CPUs ({@link CpuGroupBuilder#isolate}), whose
   * reason says whether it is in force; empty until made}
   */
  public synchronized Optional<CpuIsolation> isolation() {
    return isolation;
  }

  private void endIsolation() { // a closed group without seats gives its isolation up
    if (closed && open.isEmpty()) {
      isolation.ifPresent(CpuIsolation::close);
    }
  }

  /** Called when a seat's binding ends: a closed group frees the seat once no thread is bound. */
  synchronized void unbound(Seat seat) {
    if (closed) {
      seat.closeIfIdle();
    }
  }

  /** {@return whether the group pins nothing by choice (not merely unsupported)} */
  public boolean isUnpinned() {
    return unpinned.isPresent();
  }

  /** {@return the open seats' assignments, in joining order: an immutable snapshot} */
  public synchronized List<Assignment> assignments() {
    return open.stream().map(Seat::assignment).toList();
  }

  /** {@return the open seats, in joining order: an immutable copy without closed seats} */
  public synchronized List<Seat> seats() {
    return List.copyOf(open);
  }

  /** {@return the CPUs the group holds reserved now, each once; a whole core's idle ones too} */
  public synchronized CpuSet held() {
    return held.cpus();
  }

  /**
   * {@return for each CPU the group tried and could not reserve, the last refusal: a copy} A CPU
   * leaves it when the group gets it.
   */
  public synchronized Map<Integer, ReservationResult> refused() {
    return held.refused();
  }

  /**
   * Admits no more members and frees every CPU no thread is bound to now (the others when their
   * binding ends). Idempotent.
   */
  @Override
  public synchronized void close() {
    closed = true;
    for (Seat s : List.copyOf(open)) {
      s.closeIfIdle(); // one transition against any bind: bound, or the bind sees it closed
    }
    endIsolation();
  }

  @Override
  public synchronized String toString() {
    return String.format(
        "CpuGroup[%s, pool %s, held %s, %d seats%s]", name, pool, held(), open.size(), placedBy);
  }
}
