package io.github.affinitykit.core;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.Flight;
import io.github.affinitykit.core.internal.ThreadFiles;
import io.github.affinitykit.core.internal.VirtualThreads;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.os.AffinityException;
import io.github.affinitykit.core.reservation.Reservation;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * One member's place in a {@link CpuGroup}: the CPU planned and reserved for it (or why there is
 * none), and the thread currently bound there. The CPU stays the member's until {@link #close()},
 * however many threads {@link #bind()} to it one after another.
 *
 * <p>Thread safety: {@link #bind()} is called by the thread to be pinned; every other method may be
 * called from any thread. {@link #close()} is idempotent. The seat's whole state is one immutable
 * value changed by compare-and-set (see {@code PinState}); no lock guards it. The group's monitor
 * is taken briefly by a bind (to read its reservation) and a lease's close, and by a seat's close,
 * which then (freeing the CPU) takes the reservations'.
 */
public final class Seat implements AutoCloseable {
  private final CpuGroup group;
  private final String member;
  private final LeaseStatus planned;
  private final String plannedReason;
  private final AtomicReference<PinState> state; // the seat's whole state: see PinState

  Seat(CpuGroup group, String member, int cpu, LeaseStatus status, String reason) {
    this.group = group;
    this.member = member;
    this.planned = status;
    this.plannedReason = reason;
    this.state =
        new AtomicReference<>(
            PinState.planned(status, reason, cpu, leftAlone("no thread has bound the seat yet")));
  }

  PinState state() { // one volatile read: a consistent view of everything the seat says
    return state.get();
  }

  /**
   * The one place the state changes: applies {@code transition} atomically (compare-and-set,
   * retried on contention); returns the state it replaced, or empty when the transition did not
   * apply (it returned the same value), so that each caller tells its event exactly once.
   */
  Optional<PinState> change(UnaryOperator<PinState> transition) {
    while (true) {
      PinState was = state.get();
      PinState now = transition.apply(was);
      if (now == was) {
        return Optional.empty();
      }
      if (state.compareAndSet(was, now)) {
        return Optional.of(was);
      }
    }
  }

  /** The reservation of the seat's CPU while its group holds it. */
  Optional<Reservation> reservation() {
    int cpu = state.get().cpu(); // a re-plan may have moved the seat
    return cpu < 0 ? Optional.empty() : group.reservation(cpu);
  }

  CpuGroup group() {
    return group;
  }

  /** A seat that binds nothing, with {@code reason}: a request refused before it was seated. */
  static Seat refused(CpuGroup group, String member, String reason) {
    return new Seat(group, member, -1, LeaseStatus.UNPINNED, reason);
  }

  /** {@return the member's name, as given to {@link CpuGroup#join(String)} or group-index} */
  public String member() {
    return member;
  }

  /** {@return the CPU planned for the member (also before any bind); -1 if none or it failed} */
  public int cpu() {
    return state.get().seatCpu();
  }

  String groupName() {
    return group.name();
  }

  /**
   * {@return what became of the member} PINNED, SHARED, UNPINNED, UNSUPPORTED; FAILED (the kernel
   * refused the last bind); MOVED; LOST; RELEASED once closed.
   */
  public LeaseStatus status() {
    return state.get().seatStatus();
  }

  /** {@return why, in one line: the placement, run-out, platform or kernel (error) reason} */
  public String reason() {
    return state.get().seatReason();
  }

  String plannedReason() {
    return plannedReason;
  }

  /** {@return the name of the thread bound last, {@code ""} before the first bind} */
  public String thread() {
    return state.get().thread();
  }

  /** {@return the kernel id of the thread bound last, -1 before the first bind or if unknown} */
  public int tid() {
    return state.get().tid();
  }

  /** {@return how many threads have bound this seat, failed binds included; never decreases} */
  public int starts() {
    return state.get().starts();
  }

  /**
   * {@return whether a thread is bound here now} From a bind, even a failed one, until its lease's
   * close; a loop resumed on a new thread may briefly have two.
   */
  public boolean isBound() {
    return state.get().isBound();
  }

  /**
   * {@return what became of the group's memory policy on the thread bound last} Empty where the
   * group asked for none.
   */
  public Optional<ThreadMemoryPolicy.Binding> memoryPolicy() {
    return state.get().memory();
  }

  /** {@return a snapshot for reports; it names the member until a thread has bound the seat} */
  public Assignment assignment() {
    PinState s = state.get();
    String name = s.thread().isEmpty() ? member : s.thread();
    return new Assignment(name, s.tid(), s.seatCpu(), s.seatStatus(), s.seatReason());
  }

  /**
   * Binds the calling thread to the seat's CPU, or confines it to the group's unpinned mask when
   * the seat has none. Closing the lease restores the thread's mask; the CPU stays the seat's.
   * Never throws for a platform or kernel refusal: the lease says FAILED with the reason.
   *
   * @return the lease to close when the thread is done; its status says what happened
   */
  public CpuLease bind() {
    return bind(() -> {});
  }

  /**
   * As {@link #bind()}, for a member that is one thread for its whole life.
   *
   * @return the lease; closing it also closes this seat
   */
  public CpuLease bindOnce() {
    return bind(this::close);
  }

  /**
   * {@return {@code task} wrapped to run bound: {@link #bind()}, {@code task}, the lease closed}
   * The seat stays; it may be run by any number of threads.
   *
   * @param task the work to run bound; not null
   */
  public Runnable bound(Runnable task) {
    return around(task, this::bind);
  }

  /**
   * {@return as {@link #bound(Runnable)} with {@link #bindOnce()}: the seat closes with the task}
   * Run it on one thread, once.
   *
   * @param task the thread's whole work; not null
   */
  public Runnable boundOnce(Runnable task) {
    return around(task, this::bindOnce);
  }

  private static Runnable around(Runnable task, Supplier<CpuLease> binding) {
    Objects.requireNonNull(task, "task");
    return () -> {
      CpuLease lease = binding.get();
      try {
        task.run();
      } finally {
        lease.close();
      }
    };
  }

  /**
   * Enters the calling thread (one transition), pins or confines it, and settles the binding's
   * outcome (a second transition); {@code onClose} runs once the lease let go of the seat.
   */
  private CpuLease bind(Runnable onClose) {
    AffinityKit kit = group.kit();
    String name = Thread.currentThread().getName();
    int[] tid = {-1}; // not the previous thread's, should this one's id be unreadable
    if (VirtualThreads.isVirtual(Thread.currentThread())) { // never set a carrier's mask
      int id = change(s -> s.enter(name, -1)).orElseThrow().starts() + 1;
      String why = VirtualThreads.NOT_PINNED;
      return notPinned(LeaseStatus.UNSUPPORTED, Optional.empty(), id, -1, why, onClose);
    }
    try {
      tid[0] = threadId(kit.backend());
    } catch (RuntimeException e) {
      int id = change(s -> s.enter(name, -1)).orElseThrow().starts() + 1;
      return notPinned(
          LeaseStatus.FAILED, Optional.empty(), id, -1, "pinning failed: " + e, onClose);
    }
    PinState was = change(s -> s.enter(name, tid[0])).orElseThrow();
    int id = was.starts() + 1;
    if (was.status() == LeaseStatus.RELEASED) {
      Optional<ThreadMemoryPolicy.Binding> none = leftAlone("the seat is closed");
      return new CpuLease(this, id, Optional.of(kit), tid[0], -1, CpuSet.empty(), none, onClose);
    }
    try {
      if (planned == LeaseStatus.PINNED || planned == LeaseStatus.SHARED) {
        return pin(kit, id, tid[0], was.cpu(), onClose);
      }
      Optional<ThreadMemoryPolicy.Binding> none = leftAlone("the seat pins nothing: " + planned);
      CpuSet before = confine(kit.backend(), group.unpinnedMask());
      change(s -> s.settle(id, -1, planned, plannedReason, none));
      return new CpuLease(this, id, Optional.of(kit), tid[0], -1, before, none, onClose);
    } catch (RuntimeException e) {
      return notPinned(
          LeaseStatus.FAILED, Optional.empty(), id, tid[0], "pinning failed: " + e, onClose);
    }
  }

  private Optional<ThreadMemoryPolicy.Binding> leftAlone(String why) {
    return group.memoryPolicy().map(p -> p.leftAlone(why));
  }

  /** The bind changed nothing: the seat and the lease say {@code status} (FAILED) and why. */
  private CpuLease notPinned(
      LeaseStatus status, Optional<AffinityKit> kit, int id, int tid, String why, Runnable close) {
    Optional<ThreadMemoryPolicy.Binding> none = leftAlone("the pin failed: nothing set");
    change(s -> s.settle(id, -1, status, why, none));
    return new CpuLease(this, id, kit, tid, -1, CpuSet.empty(), none, close);
  }

  private static int threadId(AffinityBackend backend) {
    return backend.isSupported()
        ? backend.currentThreadId()
        : ThreadFiles.live().currentThreadId().orElse(-1);
  }

  /**
   * The one place a thread is bound: remembers thread {@code self}'s mask, binds it, tells the kit;
   * a kernel refusal makes the lease and the seat FAILED with its reason.
   */
  private CpuLease pin(AffinityKit kit, int id, int self, int cpu, Runnable onClose) {
    AffinityBackend backend = kit.backend();
    CpuSet before;
    String admitted = "";
    try {
      before = backend.getAffinity(self);
      admitted = kit.admit(self, cpu);
      backend.setAffinity(self, CpuSet.of(cpu));
    } catch (AffinityException | UnsupportedOperationException | IllegalArgumentException e) {
      String why =
          Objects.requireNonNullElse(e.getMessage(), e.toString())
              + (admitted.isEmpty() ? "" : " (" + admitted + ")");
      return notPinned(
          LeaseStatus.FAILED, Optional.of(kit), id, self, why, onClose); // nothing to restore
    }
    Optional<ThreadMemoryPolicy.Binding> memory = // this thread's, pinned
        group.memoryPolicy().map(ThreadMemoryPolicy::apply);
    if (change(s -> s.settle(id, cpu, planned, plannedReason, memory)).isEmpty()) {
      return undo(kit, id, self, cpu, before, memory); // the seat closed since the thread entered
    }
    CpuLease lease = new CpuLease(this, id, Optional.of(kit), self, cpu, before, memory, onClose);
    kit.pinned().add(lease);
    String policy = memory.map(Object::toString).orElse("");
    Flight.get().pinned(group.name(), member, cpu, self, planned.name(), plannedReason, policy);
    return lease;
  }

  /**
   * The seat was closed between the thread's entry and its settled bind, so its CPU may be
   * another's: policy and mask are set back, the binding ends untold, the lease says RELEASED.
   */
  private CpuLease undo(
      AffinityKit kit,
      int id,
      int self,
      int cpu,
      CpuSet before,
      Optional<ThreadMemoryPolicy.Binding> m) {
    m.ifPresent(ThreadMemoryPolicy.Binding::restore);
    try {
      kit.backend().setAffinity(self, before);
    } catch (AffinityException e) {
      // ESRCH: the thread ended; nothing to restore.
    } finally {
      kit.dismiss(self, cpu);
      change(s -> s.closing(id));
      unbound(id);
    }
    Optional<ThreadMemoryPolicy.Binding> none = leftAlone("the seat is closed");
    return new CpuLease(this, id, Optional.of(kit), self, -1, CpuSet.empty(), none, () -> {});
  }

  /**
   * Confines the calling thread to {@code mask} (empty: leaves it); the mask to restore, or empty.
   */
  private static CpuSet confine(AffinityBackend backend, CpuSet mask) {
    if (!backend.isSupported() || mask.isEmpty()) {
      return CpuSet.empty();
    }
    CpuSet before = backend.getAffinity(0);
    if (before.equals(mask)) {
      return CpuSet.empty();
    }
    backend.setAffinity(0, mask);
    return before;
  }

  /** Lease {@code id}'s thread is restored: no longer bound here; a closed group may free it. */
  void unbound(int id) {
    change(s -> s.unbound(id));
    group.unbound(this);
  }

  /**
   * Leaves the group: the CPU is freed once no other open seat of the group is on it, even while a
   * thread is still bound (to free it when the last thread lets go, close the {@link CpuGroup}).
   * Every close returns only once the seat has left (and, for a closed group's last seat, the
   * group's isolation is undone).
   */
  @Override
  public void close() {
    release(false);
  }

  /** Closes the seat if no thread is bound: one transition, atomic against any bind. */
  void closeIfIdle() {
    release(true);
  }

  /** Lock order: the group's monitor, then (in {@link CpuGroup#left}) the reservations'. */
  private void release(boolean whenIdle) {
    synchronized (group) { // a second close (a loop thread's, its group's) waits for the first
      if (change(s -> s.released(whenIdle)).isPresent()) {
        group.left(this);
      }
    }
  }

  @Override
  public String toString() {
    PinState s = state.get();
    return String.format(
        "Seat[%s, cpu %d, %s: %s%s]",
        member, s.seatCpu(), s.seatStatus(), s.seatReason(), PinState.describe(s.memory()));
  }
}
