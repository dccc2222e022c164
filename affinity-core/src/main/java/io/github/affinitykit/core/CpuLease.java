package io.github.affinitykit.core;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.Flight;
import io.github.affinitykit.core.internal.lease.LeaseSteps;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.os.AffinityException;
import io.github.affinitykit.core.reservation.Reservation;
import java.lang.ref.WeakReference;
import java.util.Objects;
import java.util.Optional;

/**
 * A thread bound to a CPU: the handle that pinning is. {@link Seat#bind()} returns it; {@link
 * #close()} restores the thread's previous mask and gives the CPU back to its seat. Its status and
 * reason are a view of the seat's one state value (ARCHITECTURE.md, "One pin state"). A lease that
 * bound no CPU says why in {@link #reason()}; closing it is harmless.
 *
 * <p>Thread safety: no lock guards its state (its bind and close take the group's monitor briefly);
 * {@link #close()} is idempotent and may be called from any thread, also concurrently with a check,
 * a re-pin or another close; the accessors may be read from any thread.
 */
public final class CpuLease implements AutoCloseable {
  static { // affinity-watchdog's steps (core.internal.lease): no I/O, one assignment
    LeaseSteps.set(
        new LeaseSteps<CpuLease>() {
          @Override
          public boolean verifyLoss(CpuLease l) {
            return l.verifyLoss();
          }

          @Override
          public int move(CpuLease l) {
            return l.move();
          }

          @Override
          public CpuSet movedTo(CpuLease l) {
            return l.movedTo();
          }

          @Override
          public String repin(CpuLease l) {
            return l.repin();
          }

          @Override
          public String replan(CpuLease l) {
            return Replan.of(l);
          }
        });
  }

  private final Seat seat;
  private final int id; // its binding in the seat's state
  private final Optional<AffinityKit> kit;
  private final int tid;
  private final CpuSet previous;
  private final Optional<ThreadMemoryPolicy.Binding> memory;
  private final Runnable onClose;
  private final String threadName = Thread.currentThread().getName(); // made on the bound thread
  // the bound thread, so that a check never reads (or a re-pin sets) a recycled thread id's mask
  private final WeakReference<Thread> owner = new WeakReference<>(Thread.currentThread());
  private volatile Held held; // its CPU, reservation and CPUs; a re-plan replaces it

  /** Where the lease is bound: its CPU (-1: none), its reservation, the CPUs reserved for it. */
  record Held(int cpu, Optional<Reservation> reservation, CpuSet cpus) {
    static Held of(int cpu, Optional<Reservation> reservation) {
      return new Held(
          cpu,
          reservation,
          reservation.map(Reservation::cpus).orElse(cpu >= 0 ? CpuSet.of(cpu) : CpuSet.empty()));
    }
  }

  /** Binding {@code id} of {@code seat}; {@code cpu} -1: none; {@code previous} empty: kept. */
  CpuLease(
      Seat seat,
      int id,
      Optional<AffinityKit> kit,
      int tid,
      int cpu,
      CpuSet previous,
      Optional<ThreadMemoryPolicy.Binding> memory,
      Runnable onClose) {
    this.seat = Objects.requireNonNull(seat, "seat");
    this.id = id;
    this.kit = Objects.requireNonNull(kit, "kit");
    this.tid = tid;
    this.previous = Objects.requireNonNull(previous, "previous");
    this.memory = Objects.requireNonNull(memory, "memory");
    this.onClose = Objects.requireNonNull(onClose, "onClose");
    this.held = Held.of(cpu, cpu >= 0 ? seat.reservation() : Optional.empty());
  }

  /**
   * {@return the bound CPU, 0-based; -1 if this lease bound none; {@link #close()} keeps it} A
   * watchdog re-planning a thread whose CPU went away ({@code RepinPolicy.REPLAN}) changes it.
   */
  public int cpu() {
    return seat.state().boundCpu(id, held.cpu());
  }

  /**
   * {@return the CPUs reserved for the thread: {@link #cpu()}, and with whole cores ({@link
   * CpuGroupBuilder#wholeCores}) the core's other CPUs, kept idle (OpenHFT's {@code cpuId2()});
   * empty if this lease bound none; {@link #close()} keeps it}
   */
  public CpuSet cpus() {
    return held.cpus();
  }

  /** {@return the name of the group whose seat made this lease} */
  public String group() {
    return seat.groupName();
  }

  /** {@return the name of the member whose seat made this lease} */
  public String member() {
    return seat.member();
  }

  /** {@return the bound thread's name at the bind; a later rename is not seen} */
  public String threadName() {
    return threadName;
  }

  /** {@return the bound thread's kernel id ({@code gettid}); -1 if unknown} */
  public int tid() {
    return tid;
  }

  /**
   * {@return the status now, from memory (no system call)} RELEASED after {@link #close()}, MOVED
   * once {@link #check()} found the thread moved, LOST once {@link #verify()} found the reservation
   * lost, else its seat's.
   */
  public LeaseStatus status() {
    return seat.state().leaseStatus(id);
  }

  /** Status and reason from one read of the seat's state, as the wait rule reads the lease. */
  Assignment view(String name) {
    PinState s = seat.state();
    return new Assignment(
        name, tid, s.boundCpu(id, held.cpu()), s.leaseStatus(id), s.leaseReason(id));
  }

  /**
   * Checks that the reservation of the lease's CPU still holds ({@link Reservation#verify()}).
   *
   * @return the status after the check: LOST if a lock file was deleted or replaced under it
   */
  public LeaseStatus verify() {
    verifyLoss();
    return status();
  }

  /** Checks the reservation's files (no lock held); true when this call found it lost. */
  boolean verifyLoss() {
    Held h = held;
    if (h.cpu() < 0 || seat.state().open(id).map(PinState.Binding::lossTold).orElse(true)) {
      return false;
    }
    h.reservation().ifPresent(Reservation::verify);
    if (!h.reservation().map(Reservation::isLost).orElse(false)
        || seat.change(s -> s.lost(id, h.cpu())).isEmpty()) {
      return false;
    }
    kit.ifPresent(k -> k.pinned().countLost());
    Flight.get().lost(h.cpu(), tid, seat.state().reason());
    return true;
  }

  /** {@return why, one line for people: the seat's reason, or the mask a check found moved to} */
  public String reason() {
    return seat.state().leaseReason(id);
  }

  /**
   * {@return whether the thread was bound to a CPU and the lease is neither closed nor found moved}
   * True also when its reservation is LOST.
   */
  public boolean isBound() {
    return seat.state().open(id).map(b -> b.cpu() >= 0 && b.moved().isEmpty()).orElse(false);
  }

  /**
   * {@return {@link #isBound()} and its reservation not found lost} One volatile read: for a spin
   * path that must stop once a check found the pin broken.
   */
  public boolean isIntact() {
    return seat.state().intact(id);
  }

  /**
   * Asks the kernel whether the bound thread still runs only on its CPU; if not, the status becomes
   * MOVED, the reason names the mask, and {@link AffinityKit#movedTotal()} counts it once. A lease
   * not bound, or whose thread ended, is left as it is.
   *
   * @return the status after the check
   */
  public LeaseStatus check() {
    checkMove();
    return status();
  }

  /** Reads the mask; true when this call found the move (a stale reading does not apply). */
  boolean checkMove() {
    Optional<PinState.Binding> seen = seat.state().open(id);
    if (seen.isEmpty() || seen.get().cpu() < 0 || !seen.get().moved().isEmpty() || !ownerAlive()) {
      return false;
    }
    int cpu = seen.get().cpu();
    CpuSet now;
    try {
      now = kit.orElseThrow().backend().getAffinity(tid);
    } catch (AffinityException | UnsupportedOperationException e) {
      return false; // ESRCH: the thread ended; close() frees the CPU
    }
    String why = "pinned to cpu " + cpu + " but the kernel now allows it on " + now;
    if ((now.size() == 1 && now.contains(cpu))
        || seat.change(s -> s.moved(seen.get(), why, now)).isEmpty()) {
      return false;
    }
    kit.orElseThrow().pinned().countMoved();
    Flight.get().moved(cpu, tid, now.toString());
    return true;
  }

  boolean ownerAlive() {
    Thread t = owner.get();
    return t != null && t.isAlive();
  }

  /** The binding's count of moves found; 0 when not moved now. A watchdog tells each once. */
  int move() {
    PinState.Binding b = seat.state().open(id).orElse(null);
    return b == null || b.moved().isEmpty() ? 0 : b.moves();
  }

  /** The CPUs the kernel allowed the thread on when a check or a re-pin last looked; else empty. */
  CpuSet movedTo() {
    return seat.state().open(id).map(PinState.Binding::mask).orElse(CpuSet.empty());
  }

  /** Binds a moved thread to its CPU again if the kernel allows it: "" if done, else why not. */
  String repin() {
    Optional<PinState.Binding> seen = seat.state().open(id);
    if (seen.isEmpty() || seen.get().moved().isEmpty()) {
      return "not moved";
    }
    if (!ownerAlive()) { // its id may be another thread's by now
      return "the thread has ended without closing its lease";
    }
    AffinityBackend backend = kit.orElseThrow().backend();
    PinState.Binding moved = seen.get();
    int cpu = moved.cpu();
    try {
      CpuSet mask = backend.getAffinity(tid);
      seat.change(s -> s.seen(moved, mask));
      if (!mask.contains(cpu)) {
        return "cpu " + cpu + " is gone: the kernel allows the thread only on " + mask;
      }
      backend.setAffinity(tid, CpuSet.of(cpu));
    } catch (AffinityException | UnsupportedOperationException | IllegalArgumentException e) {
      return "the kernel refused cpu " + cpu + ": " + e.getMessage();
    }
    if (seat.change(s -> s.repinned(moved, seat.plannedReason())).isPresent()) {
      return "";
    }
    return lostRace(backend);
  }

  /**
   * A re-pin or re-plan set the mask, then lost to a close or another check: closed meanwhile, so
   * its restore may have preceded our set: restore again, unless the thread has bound a new lease
   * since (its pin is not ours to undo).
   */
  String lostRace(AffinityBackend backend) {
    if (seat.state().open(id).isEmpty()
        && kit.orElseThrow().lease(tid).map(l -> l == this).orElse(true)) {
      restore(backend);
    }
    return "closed, re-pinned or moved again meanwhile";
  }

  Seat seat() {
    return seat;
  }

  int id() {
    return id;
  }

  AffinityKit kit() {
    return kit.orElseThrow();
  }

  /** After a re-plan's transition: the lease holds {@code to} from now on. */
  void held(Held to) {
    held = to;
  }

  /** Sets the mask the bind changed back, if it changed one (ESRCH: the thread ended: none). */
  private void restore(AffinityBackend backend) {
    try {
      if (!previous.isEmpty()) { // bound, or confined to a group's unpinned mask
        backend.setAffinity(tid, previous);
      }
    } catch (AffinityException e) {
      // ESRCH: the thread ended; nothing to restore.
    }
  }

  /**
   * {@return the mask the thread had before the bind, which {@link #close()} restores; or empty}
   */
  public CpuSet previousMask() {
    return previous;
  }

  /**
   * {@return the group's memory policy on this thread; empty where none was asked} affinity-numa's
   * {@code MemoryPolicyStatus.of(lease)} reads it.
   */
  public Optional<ThreadMemoryPolicy.Binding> memoryPolicy() {
    return memory;
  }

  /**
   * Restores the thread's memory policy (when closed on that thread) and mask (if it still lives),
   * leaves the kit's pinned threads and frees the seat. Idempotent.
   */
  @Override
  public void close() {
    Optional<PinState> was = seat.change(s -> s.closing(id)); // once: the first close
    if (was.isEmpty()) {
      return;
    }
    int cpu = was.get().boundCpu(id, held.cpu());
    try {
      memory.ifPresent(ThreadMemoryPolicy.Binding::restore); // first, as it was set last
      kit.ifPresent(k -> restore(k.backend()));
      if (cpu >= 0) {
        kit.ifPresent(k -> k.dismiss(tid, cpu));
      }
    } catch (AffinityException e) {
      // ESRCH: the thread ended; nothing to restore.
    } finally {
      kit.ifPresent(k -> k.pinned().remove(this));
      seat.unbound(id);
      onClose.run();
      if (cpu >= 0) {
        Flight.get().released(cpu, tid, was.get().leaseStatus(id).name());
      }
    }
  }

  @Override
  public String toString() {
    return String.format(
        "CpuLease[tid=%d, cpu=%d, %s: %s%s]",
        tid, cpu(), status(), reason(), PinState.describe(memory));
  }
}
