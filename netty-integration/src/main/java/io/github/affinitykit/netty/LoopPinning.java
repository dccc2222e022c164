package io.github.affinitykit.netty;

import io.github.affinitykit.core.AffinityBackend;
import io.github.affinitykit.core.AffinityException;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.LeaseStatus;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The pinning of one group's loops: the planned slots, the executor wrapper that makes every thread
 * running loop {@code i} bind itself to slot {@code i} before the loop runs (and again for a new
 * thread after a suspend/resume), and the live assignment of each loop.
 *
 * <p>It travels through Netty's constructor {@code Object... args} into {@code newChild}, which
 * Netty calls once per loop in index order, from the group's constructor.
 *
 * <p>Thread safety: {@link #wrap} is called by the group's constructor; the wrapped executors,
 * {@link #assignments()} and {@link #release()} may be used from any thread.
 */
final class LoopPinning {
  private static final System.Logger LOG = System.getLogger(LoopPinning.class.getName());

  private final String name;
  private final Optional<AffinityKit> kit;
  private final List<LoopSlot> slots;
  private final AtomicReferenceArray<LoopAssignment> live;
  private final AtomicInteger nextChild = new AtomicInteger();
  private final AtomicBoolean released = new AtomicBoolean();

  LoopPinning(String name, PinningSpec spec, List<LoopSlot> slots) {
    this.name = Objects.requireNonNull(name, "name");
    this.kit = spec.enabled() ? Optional.of(spec.kit()) : Optional.empty();
    this.slots = List.copyOf(slots);
    this.live = new AtomicReferenceArray<>(slots.size());
    for (LoopSlot s : slots) {
      live.set(s.index(), assignment(s, s.status(), s.reason(), "", -1, 0, false));
    }
    long unpinned = slots.stream().filter(s -> s.status() == LeaseStatus.UNPINNED).count();
    if (spec.enabled() && spec.unpinnedBecause().isEmpty() && unpinned > 0) {
      LOG.log(
          Level.WARNING,
          "{0}: {1} of {2} loops unpinned: {3}",
          name,
          unpinned,
          slots.size(),
          slots.get(slots.size() - 1).reason());
    }
  }

  /** Plans and reserves the CPUs of {@code loops} loops of group {@code name}. */
  static LoopPinning plan(String name, int loops, PinningSpec spec) {
    Objects.requireNonNull(spec, "spec");
    return new LoopPinning(name, spec, LoopPlanner.plan(name, loops, spec));
  }

  String name() {
    return name;
  }

  int size() {
    return slots.size();
  }

  /** Returns the index of the next child Netty creates (0, 1, ... in its constructor). */
  int nextChild() {
    return nextChild.getAndIncrement();
  }

  /** Wraps loop {@code index}'s executor: each thread it starts pins itself first. */
  Executor wrap(int index, Executor delegate) {
    Objects.requireNonNull(delegate, "delegate");
    LoopSlot slot = slots.get(index);
    return task -> delegate.execute(() -> run(slot, task));
  }

  private void run(LoopSlot slot, Runnable task) {
    Optional<CpuLease> lease = Optional.empty();
    LeaseStatus status = slot.status();
    String reason = slot.reason();
    try {
      if (slot.reservation().isPresent()) {
        CpuLease l = kit.orElseThrow().bindCurrentThread(slot.reservation().get());
        lease = Optional.of(l);
        if (!l.isBound()) {
          status = l.status();
          reason = l.reason();
        }
      } else if (!slot.mask().isEmpty()) {
        AffinityBackend backend = kit.orElseThrow().backend();
        backend.setAffinity(0, slot.mask());
      }
    } catch (AffinityException | IllegalStateException e) {
      status = LeaseStatus.FAILED;
      reason = "pinning failed: " + e.getMessage();
    }
    int tid = currentTid();
    String thread = Thread.currentThread().getName();
    int starts = live.get(slot.index()).starts() + 1;
    live.set(slot.index(), assignment(slot, status, reason, thread, tid, starts, true));
    try {
      task.run();
    } finally {
      lease.ifPresent(CpuLease::close);
      // After a suspend/resume the loop may already run on a newer thread: leave its entry alone.
      LoopAssignment mine = live.get(slot.index());
      if (mine.tid() == tid) {
        live.compareAndSet(
            slot.index(), mine, assignment(slot, status, reason, thread, tid, starts, false));
      }
    }
  }

  /** The calling thread's kernel id: from the backend, else from {@code /proc/thread-self}. */
  private int currentTid() {
    if (kit.isPresent() && kit.get().backend().isSupported()) {
      return kit.get().backend().currentThreadId();
    }
    try {
      Path link = Files.readSymbolicLink(Path.of("/proc/thread-self"));
      return Integer.parseInt(link.getFileName().toString());
    } catch (IOException | UnsupportedOperationException | NumberFormatException e) {
      return -1;
    }
  }

  private LoopAssignment assignment(
      LoopSlot s,
      LeaseStatus status,
      String reason,
      String thread,
      int tid,
      int starts,
      boolean running) {
    int cpu = status == LeaseStatus.FAILED ? -1 : s.cpu();
    return new LoopAssignment(name, s.index(), cpu, status, reason, thread, tid, starts, running);
  }

  /** Returns every loop's assignment, in loop order. */
  List<LoopAssignment> assignments() {
    List<LoopAssignment> out = new ArrayList<>();
    for (int i = 0; i < live.length(); i++) {
      out.add(live.get(i));
    }
    return out;
  }

  /** Frees the group's CPUs (once all its loops have terminated). Idempotent. */
  void release() {
    if (released.compareAndSet(false, true)) {
      LoopPlanner.release(slots);
    }
  }
}
