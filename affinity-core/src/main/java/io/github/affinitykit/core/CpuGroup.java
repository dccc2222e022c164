package io.github.affinitykit.core;

import io.github.affinitykit.core.internal.RunOutReason;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.placement.Placement;
import io.github.affinitykit.core.placement.Plan;
import io.github.affinitykit.core.placement.Planner;
import io.github.affinitykit.core.placement.RunOutPolicy;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.reservation.Reservation;
import io.github.affinitykit.core.reservation.ReservationResult;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A group of threads placed together, and the one owner of the placement protocol: plan → reserve →
 * run out → bind. Every pinned thread of this library gets its CPU from a group: a {@link
 * PinnedThreadFactory}'s threads, a Netty loop group's loops, a Disruptor's producer and consumers.
 *
 * <p>{@link #join(String)} gives the next member a {@link Seat}: the planner picks the lowest free
 * CPU of the pool that fits the {@link Placement}s after the previous member's CPU (see {@link
 * Planner}); the group reserves it across processes ({@link CpuReservations}); a CPU someone else
 * holds is skipped and the next one planned. When no CPU is left the group's {@link RunOutPolicy}
 * decides, the same way for every adapter. {@link #joinOn(String, int)} asks for one CPU by number
 * instead. {@link Seat#bind()} binds the calling thread to the seat's CPU; a thread may come and go
 * (a Netty loop resumed on a new thread binds the same seat again). A CPU is held while any seat on
 * it is open; {@link Seat#close()} gives it up. The group keeps only open seats: a pool that keeps
 * replacing its threads holds bounded state.
 *
 * <pre>{@code
 * try (CpuGroup group = CpuGroup.builder(kit, "worker").placements(Placement.DIFFERENT_CORE).build()) {
 *   Seat seat = group.join("worker-0");
 *   try (CpuLease lease = seat.bind()) {
 *     ...
 *   } finally {
 *     seat.close();
 *   }
 * }
 * }</pre>
 *
 * <p>Thread safety: safe for concurrent use; all methods serialise on the group. A {@link Seat} is
 * bound from the thread it pins and may be closed or read from any thread.
 */
public final class CpuGroup implements AutoCloseable {
  private final Optional<AffinityKit> kit;
  private final String name;
  private final CpuSet pool;
  private final List<Placement> placements;
  private final RunOutPolicy runOut;
  private final Optional<String> off;
  private final CpuSet unpinnedMask;
  private final Optional<Planner> planner;
  private final Map<Integer, Reservation> held = new TreeMap<>();
  private final Map<Integer, Integer> load = new TreeMap<>();
  private final Map<Integer, ReservationResult> refused = new TreeMap<>();
  private final Set<Seat> open = new LinkedHashSet<>();
  private int next;
  private int previous = -1;
  private boolean closed;

  private CpuGroup(Builder b) {
    this.kit = b.kit;
    this.name = b.name;
    this.placements = b.placements;
    this.runOut = b.runOut;
    this.off = b.off;
    this.planner = kit.map(k -> new Planner(k.host().topology()));
    this.pool = kit.map(k -> b.pool.orElse(k.pool().cpus())).orElse(CpuSet.empty());
    this.unpinnedMask =
        b.unpinnedMask.orElseGet(() -> kit.map(k -> k.host().reachable()).orElse(CpuSet.empty()));
    kit.ifPresent(k -> checkReachable(k, "pool", pool));
    kit.ifPresent(k -> checkReachable(k, "unpinnedMask", unpinnedMask));
  }

  private void checkReachable(AffinityKit k, String what, CpuSet cpus) {
    if (!k.host().reachable().containsAll(cpus)) {
      throw new IllegalArgumentException(
          name
              + ": "
              + what
              + ": "
              + cpus
              + " (expected: CPUs this process may use: "
              + k.host().reachable()
              + ")");
    }
  }

  /** Returns a builder of a group named {@code name} (members are named by the caller). */
  public static Builder builder(AffinityKit kit, String name) {
    return new Builder(Optional.of(Objects.requireNonNull(kit, "kit")), name);
  }

  /**
   * Returns a group that pins nothing and needs no kit: every seat is {@link LeaseStatus#UNPINNED}
   * with {@code reason}, and binding leaves the thread's mask as it is (pinning switched off).
   */
  public static CpuGroup unpinned(String name, String reason) {
    Objects.requireNonNull(reason, "reason");
    return new Builder(Optional.empty(), name).off(reason).build();
  }

  /** Returns the group's name. */
  public String name() {
    return name;
  }

  /** Returns the CPUs the group draws from (empty for a group that pins nothing). */
  public CpuSet pool() {
    return pool;
  }

  /** As {@link #join(String)}, naming the member {@code <group name>-<index>}. */
  public synchronized Seat join() {
    return join(name + "-" + next);
  }

  /**
   * Plans, reserves and returns the next member's seat (see {@link CpuGroup}); when no CPU is left,
   * the run-out policy decides.
   *
   * @throws IllegalStateException if no CPU is left and the run-out policy is {@link
   *     RunOutPolicy#FAIL}, or the group is closed
   */
  public synchronized Seat join(String member) {
    Optional<Seat> unpinned = unpinnedSeat(member);
    if (unpinned.isPresent()) {
      return unpinned.get();
    }
    AffinityKit k = kit.orElseThrow();
    CpuSet live = CpuSet.of(held.keySet().stream().mapToInt(Integer::intValue).toArray());
    CpuSet busy = CpuSet.empty();
    List<ReservationResult> failures = new ArrayList<>();
    while (true) {
      CpuSet free = pool.minus(busy).minus(live);
      Plan.Slot s = planner.orElseThrow().next(next, pool, free, busy, live, previous, placements);
      if (!s.placed()) {
        String placement = free.isEmpty() ? "" : s.reason();
        return runOut(member, RunOutReason.of(pool, live, placement, failures));
      }
      ReservationResult r = k.reservations().tryReserve(s.cpu());
      if (r.isReserved()) {
        return hold(member, r.orElseThrow(), s.reason());
      }
      busy = busy.union(CpuSet.of(s.cpu()));
      failures.add(r);
      refused.put(s.cpu(), r);
    }
  }

  /**
   * Returns a seat on {@code cpu} for the next member: shared with the group's members already
   * there ({@link LeaseStatus#SHARED}), else reserved; when another holds it, the run-out policy
   * decides as for {@link #join(String)}.
   *
   * @throws IllegalArgumentException if {@code cpu} is not one this process may use
   * @throws IllegalStateException if the CPU is taken and the run-out policy is {@link
   *     RunOutPolicy#FAIL}, or the group is closed
   */
  public synchronized Seat joinOn(String member, int cpu) {
    Optional<Seat> unpinned = unpinnedSeat(member);
    if (unpinned.isPresent()) {
      return unpinned.get();
    }
    AffinityKit k = kit.orElseThrow();
    checkReachable(k, "cpu", CpuSet.of(cpu));
    if (held.containsKey(cpu)) {
      load.merge(cpu, 1, Integer::sum);
      return add(member, cpu, LeaseStatus.SHARED, "explicit cpu " + cpu + ", shared");
    }
    ReservationResult r = k.reservations().tryReserve(cpu);
    if (r.isReserved()) {
      return hold(member, r.orElseThrow(), "explicit cpu " + cpu);
    }
    refused.put(cpu, r);
    return runOut(member, r.reason());
  }

  /** A seat that pins nothing: the group is off, closed or the platform cannot pin. */
  private Optional<Seat> unpinnedSeat(String member) {
    Objects.requireNonNull(member, "member");
    if (closed) {
      throw new IllegalStateException(name + ": closed (expected: an open group to join)");
    }
    if (off.isPresent()) {
      return Optional.of(add(member, -1, LeaseStatus.UNPINNED, off.get()));
    }
    AffinityBackend backend = kit.orElseThrow().backend();
    if (!backend.isSupported()) {
      return Optional.of(add(member, -1, LeaseStatus.UNSUPPORTED, backend.reason()));
    }
    return Optional.empty();
  }

  private Seat hold(String member, Reservation r, String why) {
    held.put(r.cpu(), r);
    load.put(r.cpu(), 1);
    refused.remove(r.cpu());
    previous = r.cpu();
    return add(member, r.cpu(), LeaseStatus.PINNED, why);
  }

  private Seat runOut(String member, String why) {
    String message = name + ": no CPU of pool " + pool + " left for " + member + " (" + why + ")";
    if (runOut == RunOutPolicy.FAIL) {
      next++;
      throw new IllegalStateException(message + "; run-out policy FAIL");
    }
    if (runOut == RunOutPolicy.SHARE && !load.isEmpty()) {
      int cpu = -1;
      for (Map.Entry<Integer, Integer> e : load.entrySet()) {
        if (cpu < 0 || e.getValue() < load.get(cpu)) {
          cpu = e.getKey();
        }
      }
      load.merge(cpu, 1, Integer::sum);
      return add(member, cpu, LeaseStatus.SHARED, "shares cpu " + cpu + " (run-out policy SHARE)");
    }
    String where = unpinnedMask.isEmpty() ? "the CPUs it inherits" : "CPUs " + unpinnedMask;
    return add(member, -1, LeaseStatus.UNPINNED, message + "; runs unpinned on " + where);
  }

  private Seat add(String member, int cpu, LeaseStatus status, String reason) {
    Seat seat = new Seat(this, next++, member, cpu, status, reason);
    open.add(seat);
    return seat;
  }

  Optional<AffinityKit> kit() {
    return kit;
  }

  CpuSet unpinnedMask() {
    return unpinnedMask;
  }

  /** The reservation of {@code cpu} while the group holds it. */
  synchronized Optional<Reservation> reservation(int cpu) {
    return Optional.ofNullable(held.get(cpu));
  }

  /** Called by a seat's first close: frees its CPU once no other open seat is on it. */
  synchronized void left(Seat seat) {
    if (!open.remove(seat)) {
      return;
    }
    int cpu = seat.plannedCpu();
    if (cpu >= 0 && load.merge(cpu, -1, Integer::sum) == 0) {
      load.remove(cpu);
      held.remove(cpu).close();
    }
  }

  /** Called when a seat's binding ends: a closed group frees the seat once no thread is bound. */
  void unbound(Seat seat) {
    boolean free;
    synchronized (this) {
      free = closed;
    }
    if (free && !seat.isBound()) {
      seat.close();
    }
  }

  /** Returns the open seats' assignments, in joining order. */
  public synchronized List<Assignment> assignments() {
    return open.stream().map(Seat::assignment).toList();
  }

  /** Returns the open seats, in joining order. */
  public synchronized List<Seat> seats() {
    return List.copyOf(open);
  }

  /** Returns the CPUs the group holds reserved now. */
  public synchronized CpuSet held() {
    return CpuSet.of(held.keySet().stream().mapToInt(Integer::intValue).toArray());
  }

  /**
   * Returns, for each CPU the group tried and could not reserve, the last refusal (held by this
   * JVM, by another process with its pid, or unavailable); a CPU leaves this map when the group
   * gets it. Taken from the group's own attempts: nothing is reserved just to look.
   */
  public synchronized Map<Integer, ReservationResult> refused() {
    return Map.copyOf(refused);
  }

  /**
   * Admits no more members and frees every CPU no thread of the group is bound to now; a CPU a
   * thread is still bound to is freed when that binding ends. Idempotent.
   */
  @Override
  public void close() {
    List<Seat> idle;
    synchronized (this) {
      closed = true;
      idle = open.stream().filter(s -> !s.isBound()).toList();
    }
    idle.forEach(Seat::close);
  }

  @Override
  public synchronized String toString() {
    return "CpuGroup["
        + name
        + ", pool "
        + pool
        + ", held "
        + held()
        + ", "
        + open.size()
        + " seats]";
  }

  /**
   * Configures a {@link CpuGroup}. Defaults: the kit's pool, placement {@link Placement#ANY},
   * run-out {@link RunOutPolicy#UNPINNED}, unpinned members confined to the CPUs this process may
   * use.
   *
   * <p>Thread safety: not thread-safe; build on one thread.
   */
  public static final class Builder {
    private final Optional<AffinityKit> kit;
    private final String name;
    private Optional<CpuSet> pool = Optional.empty();
    private List<Placement> placements = List.of(Placement.ANY);
    private RunOutPolicy runOut = RunOutPolicy.UNPINNED;
    private Optional<String> off = Optional.empty();
    private Optional<CpuSet> unpinnedMask = Optional.empty();

    private Builder(Optional<AffinityKit> kit, String name) {
      this.kit = kit;
      this.name = Objects.requireNonNull(name, "name");
    }

    /** Draws CPUs from {@code cpus} instead of the kit's pool. */
    public Builder pool(CpuSet cpus) {
      this.pool = Optional.of(Objects.requireNonNull(cpus, "cpus"));
      return this;
    }

    /** Placements tried in order for each member after the first; empty means {@code ANY}. */
    public Builder placements(List<Placement> placements) {
      this.placements = placements.isEmpty() ? List.of(Placement.ANY) : List.copyOf(placements);
      return this;
    }

    /** What to do when no CPU is left (default {@link RunOutPolicy#UNPINNED}). */
    public Builder runOut(RunOutPolicy policy) {
      this.runOut = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /**
     * Pins nothing: every member is {@link LeaseStatus#UNPINNED} with {@code reason} and gets the
     * unpinned mask (set it to {@link CpuSet#empty()} to leave threads' masks alone).
     */
    public Builder off(String reason) {
      this.off = Optional.of(Objects.requireNonNull(reason, "reason"));
      return this;
    }

    /**
     * Sets the mask a member that gets no CPU is confined to (default: the CPUs this process may
     * use, so that it never keeps a pinned creator's CPU); {@link CpuSet#empty()} leaves it alone.
     */
    public Builder unpinnedMask(CpuSet mask) {
      this.unpinnedMask = Optional.of(Objects.requireNonNull(mask, "mask"));
      return this;
    }

    /**
     * Builds the group.
     *
     * @throws IllegalArgumentException if the pool or the unpinned mask names CPUs this process may
     *     not use
     */
    public CpuGroup build() {
      return new CpuGroup(this);
    }
  }
}
