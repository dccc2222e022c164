package io.github.affinitykit.core;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.Flight;
import io.github.affinitykit.core.memory.MemoryPolicy;
import io.github.affinitykit.core.memory.MemoryPolicyStatus;
import io.github.affinitykit.core.observe.TaskReader;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.os.AffinityException;
import io.github.affinitykit.core.reservation.Reservation;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * One member's place in a {@link CpuGroup}: the CPU planned and reserved for it (or why there is
 * none), and the thread currently bound there. The CPU stays the member's until {@link #close()},
 * however many threads {@link #bind()} to it one after another.
 *
 * <p>Thread safety: {@link #bind()} is called by the thread to be pinned; every other method may be
 * called from any thread. {@link #close()} is idempotent.
 */
public final class Seat implements AutoCloseable {
  private final CpuGroup group;
  private final int index;
  private final String member;
  private final int cpu;
  private final LeaseStatus planned;
  private final String plannedReason;
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile LeaseStatus status;
  private volatile String reason;
  private volatile String thread = "";
  private volatile int tid = -1;
  private volatile String moved = ""; // why its thread's lease was found moved; "" if not
  private volatile ThreadMemory memory;
  private final AtomicInteger starts = new AtomicInteger();
  private final AtomicInteger bindings = new AtomicInteger();

  Seat(CpuGroup group, int index, String member, int cpu, LeaseStatus status, String reason) {
    this.group = group;
    this.index = index;
    this.member = member;
    this.cpu = cpu;
    this.planned = status;
    this.plannedReason = reason;
    this.status = status;
    this.reason = reason;
    this.memory = ThreadMemory.leftAlone(group.memoryPolicy(), "no thread has bound the seat yet");
  }

  /** The reservation of the seat's CPU while its group holds it. */
  Optional<Reservation> reservation() {
    return cpu < 0 ? Optional.empty() : group.reservation(cpu);
  }

  /** A seat that binds nothing, with {@code reason}: a request refused before it was seated. */
  static Seat refused(CpuGroup group, String member, String reason) {
    return new Seat(group, -1, member, -1, LeaseStatus.UNPINNED, reason);
  }

  /**
   * Returns the member's number in its group: 0, 1, ... in joining order.
   *
   * @return the number, from 0; a join that failed used one too, so numbers may skip
   */
  public int index() {
    return index;
  }

  /**
   * Returns the member's name, as given to {@link CpuGroup#join(String)}.
   *
   * @return the name, e.g. {@code <group name>-<index>} when the group chose it
   */
  public String member() {
    return member;
  }

  /**
   * Returns the CPU planned for the member, which its threads are bound to.
   *
   * @return the CPU planned for the member (also before any bind); -1 if none or the bind failed
   */
  public int cpu() {
    return status == LeaseStatus.FAILED ? -1 : cpu;
  }

  String groupName() {
    return group.name();
  }

  int plannedCpu() {
    return cpu;
  }

  /**
   * Returns what became of the member: PINNED, SHARED, UNPINNED, UNSUPPORTED; FAILED (the kernel
   * refused the last bind); MOVED (a check found its thread elsewhere, until re-pinned); LOST (a
   * check found the CPU's reservation lost); RELEASED once closed.
   *
   * @return the status now, never null; no I/O ({@link CpuLease#verify()} checks the lock files)
   */
  public LeaseStatus status() {
    LeaseStatus s = status;
    if ((s == LeaseStatus.PINNED || s == LeaseStatus.SHARED) && !moved.isEmpty()) {
      return LeaseStatus.MOVED;
    }
    return leaseStatus();
  }

  /** The status without the move some lease found: a lease reads it under its own move. */
  LeaseStatus leaseStatus() {
    LeaseStatus s = status;
    if (s == LeaseStatus.PINNED || s == LeaseStatus.SHARED) {
      boolean lost = reservation().map(Reservation::isLost).orElse(false);
      return lost ? LeaseStatus.LOST : s;
    }
    return s;
  }

  /**
   * Returns why: the placement that chose the CPU, or the run-out, platform or kernel reason.
   *
   * @return one line for people; after a failed bind, the kernel's error
   */
  public String reason() {
    String m = moved;
    return m.isEmpty() ? reason : m;
  }

  String leaseReason() { // the reason without the move some lease found
    return reason;
  }

  /** A lease found its thread moved: the seat's status says MOVED (for the reports). */
  void moved(String why) {
    moved = why;
  }

  /** A lease's thread was bound to its CPU again: the move undone is named. */
  void repinned(String undone) {
    reason = plannedReason + " (re-pinned after: " + undone + ")";
    moved = "";
  }

  /**
   * Returns the name of the thread bound last ("" before any).
   *
   * @return the thread's name, or {@code ""} before the first bind
   */
  public String thread() {
    return thread;
  }

  /**
   * Returns the kernel id of the thread bound last (-1 before any).
   *
   * @return the thread's kernel id, or -1 before the first bind or when unknown
   */
  public int tid() {
    return tid;
  }

  /**
   * Returns how many threads have bound this seat.
   *
   * @return the number of binds so far, failed ones included; never decreases
   */
  public int starts() {
    return starts.get();
  }

  /**
   * Returns whether a thread is bound here now (between {@link #bind()} and its lease's close; a
   * loop resumed on a new thread may briefly have two).
   *
   * @return true from a bind until its lease is closed, even if the bind failed
   */
  public boolean isBound() {
    return bindings.get() > 0;
  }

  /**
   * Returns what became of the group's memory policy ({@link CpuGroupBuilder#memoryPolicy}) on the
   * thread bound last: left alone, in force, refused with the errno, restored once it let go.
   *
   * @return the status of the last binding's policy; {@code LEFT_ALONE} before any
   */
  public MemoryPolicyStatus memoryPolicy() {
    return memory.status();
  }

  /**
   * Returns a snapshot for reports.
   *
   * @return a new snapshot; it names the member until a thread has bound the seat
   */
  public Assignment assignment() {
    String name = thread.isEmpty() ? member : thread;
    return new Assignment(name, tid, cpu(), status(), reason());
  }

  /**
   * Binds the calling thread to the seat's CPU; a seat without a CPU confines it to the group's
   * unpinned mask instead (so it never keeps a pinned creator's CPU). Closing the returned lease
   * restores the thread's previous mask and keeps the CPU the seat's. Never throws for a platform
   * or kernel refusal: the lease and {@link #status()} say FAILED with the kernel's reason.
   *
   * @return the lease to close when the thread is done; its status says what happened
   */
  public CpuLease bind() {
    return bind(this::unbind);
  }

  /**
   * As {@link #bind()}, for a member that is one thread for its whole life: closing the lease also
   * closes the seat.
   *
   * @return the lease; closing it also closes this seat
   */
  public CpuLease bindOnce() {
    return bind(
        () -> {
          unbind();
          close();
        });
  }

  /**
   * Returns {@code task} wrapped to run bound to this seat: the thread that runs it calls {@link
   * #bind()} first and closes the lease when the task ends, however it ends; the seat stays (for
   * the next thread of a Netty loop, say). May be run by any number of threads, one after another
   * or at once.
   *
   * @param task the work to run bound; not null
   * @return a task that binds, runs {@code task}, then closes the lease
   */
  public Runnable bound(Runnable task) {
    return around(task, this::bind);
  }

  /**
   * As {@link #bound(Runnable)} with {@link #bindOnce()}, for a member that is one thread for its
   * whole life: when the task ends the seat is closed too. Run it on one thread, once.
   *
   * @param task the thread's whole work; not null
   * @return a task that binds, runs {@code task}, then closes the lease and this seat
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

  private CpuLease bind(Runnable onClose) {
    AffinityKit kit = group.kit();
    boolean open;
    synchronized (group) { // CpuGroup.close() frees idle seats under this lock: bound or closed
      bindings.incrementAndGet();
      open = !closed.get();
    }
    starts.incrementAndGet();
    thread = Thread.currentThread().getName();
    tid = -1; // not the previous thread's, should this one's id be unreadable
    try {
      tid = threadId(kit.backend());
      if (!open) {
        memory = ThreadMemory.leftAlone(group.memoryPolicy(), "the seat is closed");
        return new CpuLease(this, Optional.of(kit), tid, -1, CpuSet.empty(), memory, onClose);
      }
      if (planned == LeaseStatus.PINNED || planned == LeaseStatus.SHARED) {
        return pin(kit, tid, onClose);
      }
      memory = ThreadMemory.leftAlone(group.memoryPolicy(), "the seat pins nothing: " + planned);
      CpuSet before = confine(kit.backend(), group.unpinnedMask());
      status = planned;
      reason = plannedReason;
      return new CpuLease(this, Optional.of(kit), tid, -1, before, memory, onClose);
    } catch (RuntimeException e) {
      status = LeaseStatus.FAILED;
      reason = "pinning failed: " + e;
      memory = ThreadMemory.leftAlone(group.memoryPolicy(), "the pin failed: nothing set");
      return new CpuLease(this, Optional.empty(), tid, -1, CpuSet.empty(), memory, onClose);
    }
  }

  private static int threadId(AffinityBackend backend) {
    return backend.isSupported()
        ? backend.currentThreadId()
        : TaskReader.live().currentThreadId().orElse(-1);
  }

  /**
   * The one place a thread is bound: remembers thread {@code self}'s mask, binds it, tells the kit;
   * a kernel refusal makes the lease and the seat FAILED with its reason.
   */
  private CpuLease pin(AffinityKit kit, int self, Runnable onClose) {
    AffinityBackend backend = kit.backend();
    CpuSet before = CpuSet.empty();
    String admitted = "";
    try {
      before = backend.getAffinity(self);
      admitted = kit.admit(self, cpu);
      backend.setAffinity(self, CpuSet.of(cpu));
    } catch (AffinityException | UnsupportedOperationException | IllegalArgumentException e) {
      String why =
          Objects.requireNonNullElse(e.getMessage(), e.toString())
              + (admitted.isEmpty() ? "" : " (" + admitted + ")");
      status = LeaseStatus.FAILED;
      reason = why; // the kernel changed nothing: nothing to restore
      memory = ThreadMemory.leftAlone(group.memoryPolicy(), "the pin failed: nothing set");
      return new CpuLease(this, Optional.of(kit), self, -1, CpuSet.empty(), memory, onClose);
    }
    status = planned;
    reason = plannedReason;
    moved = "";
    memory = ThreadMemory.apply(kit, group.memoryPolicy()); // per thread: this one, pinned now
    CpuLease lease = new CpuLease(this, Optional.of(kit), self, cpu, before, memory, onClose);
    kit.leases().add(lease);
    Flight.pinned(
        group.name(),
        member,
        cpu,
        self,
        status.name(),
        reason,
        memory.status().asked().equals(MemoryPolicy.DEFAULT) ? "" : memory.status());
    return lease;
  }

  /**
   * Confines the calling thread to {@code mask} (none: leaves it alone); returns the mask to
   * restore, empty when nothing was changed.
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

  private void unbind() {
    moved = ""; // the next thread starts pinned
    bindings.decrementAndGet();
    group.unbound(this);
  }

  /**
   * Leaves the group: the CPU is freed once no other open seat of the group is on it. Closing a
   * seat a thread is still bound to gives the CPU up at once (a Netty group does so once its loops
   * have terminated); to free it only when the last thread lets go, close the {@link CpuGroup}.
   * Whichever thread closes first, every close returns only once the seat has left: its CPU freed
   * (if no other seat is on it) and, for the group's last seat once the group is closed, the
   * group's isolation undone.
   */
  @Override
  public void close() {
    synchronized (group) { // a second close (a loop thread's, its group's) waits for the first
      if (closed.compareAndSet(false, true)) {
        if (starts.get() == 0) {
          reason = "never started; freed by close()";
        }
        status = LeaseStatus.RELEASED;
        group.left(this);
      }
    }
  }

  @Override
  public String toString() {
    return "Seat["
        + member
        + ", cpu "
        + cpu()
        + ", "
        + status()
        + ": "
        + reason
        + ThreadMemory.describe(memory.status())
        + "]";
  }
}
