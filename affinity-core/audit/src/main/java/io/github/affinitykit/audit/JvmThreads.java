package io.github.affinitykit.audit;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.os.AffinityException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * JVM hygiene: moves every thread of this JVM that is not pinned (GC workers, JIT compilers, the VM
 * thread, other Java threads) onto the housekeeping CPUs, so that pinned threads get their CPUs to
 * themselves as far as this JVM is concerned, at runtime, without a reboot. Other processes are not
 * touched: only isolation ({@code isolcpus}, cgroup partitions) keeps them off.
 *
 * <p>New threads inherit their creator's mask, and the JVM starts threads lazily (GC and compiler
 * threads, {@code ForkJoinPool.commonPool} workers): {@link #sweepEvery(Duration)} repeats the move
 * in the background.
 *
 * <p>Thread safety: safe for concurrent use.
 */
public final class JvmThreads {
  private final AffinityBackend backend;
  private final CpuSet housekeeping;
  private final CpuSet reachable;
  private final Supplier<Set<Integer>> pinned;
  private final Path root;

  private JvmThreads(
      AffinityBackend backend,
      CpuSet housekeeping,
      CpuSet reachable,
      Supplier<Set<Integer>> pinned,
      Path root) {
    this.backend = Objects.requireNonNull(backend, "backend");
    this.housekeeping = Objects.requireNonNull(housekeeping, "housekeeping");
    this.reachable = Objects.requireNonNull(reachable, "reachable");
    this.pinned = Objects.requireNonNull(pinned, "pinned");
    this.root = Objects.requireNonNull(root, "root");
  }

  /**
   * Returns the rest of this JVM as {@code kit} sees it: {@link #confine()} moves every thread not
   * pinned through the kit (GC, JIT, other Java threads) to its pool's housekeeping CPUs with its
   * backend.
   *
   * @param kit the kit whose pinned threads are left alone; not null
   * @return a view of this JVM's threads; each call a new one, all equivalent
   */
  public static JvmThreads of(AffinityKit kit) {
    return of(
        kit.backend(), kit.pool().housekeeping(), kit.host().reachable(), kit::pinnedThreadIds);
  }

  /**
   * Works on this JVM with {@code backend}, leaving the threads {@code pinned} names alone; {@link
   * #of(AffinityKit)} passes a kit's own.
   *
   * @param backend moves the threads; not null
   * @param housekeeping where {@link #confine()} sends the rest of the JVM; not null
   * @param reachable the CPUs a confinement gives the threads back when it is closed; not null
   * @param pinned the kernel thread ids of the pinned threads, asked at each confinement; not null
   * @return the JVM's threads as seen from this process's {@code /proc}
   */
  public static JvmThreads of(
      AffinityBackend backend,
      CpuSet housekeeping,
      CpuSet reachable,
      Supplier<Set<Integer>> pinned) {
    return new JvmThreads(backend, housekeeping, reachable, pinned, Path.of("/"));
  }

  /** As {@link #of}, reading {@code /proc} under {@code root} (tests). */
  static JvmThreads at(
      Path root,
      AffinityBackend backend,
      CpuSet housekeeping,
      CpuSet reachable,
      Supplier<Set<Integer>> pinned) {
    return new JvmThreads(backend, housekeeping, reachable, pinned, root);
  }

  /**
   * Confines every unpinned thread of this JVM to the housekeeping CPUs.
   *
   * @return what became of each thread alive now; threads started later are not in it
   */
  public ConfineReport confine() {
    return confine(housekeeping, Set.of());
  }

  /**
   * Confines every thread of this JVM to {@code housekeeping}, except the kit's pinned threads and
   * {@code keep}.
   *
   * @param housekeeping the CPUs to send the threads to, at least one
   * @param keep kernel thread ids of further threads to leave alone; may be empty
   * @return what became of each thread alive now; threads started later are not in it
   * @throws IllegalArgumentException if {@code housekeeping} is empty
   */
  public ConfineReport confine(CpuSet housekeeping, Set<Integer> keep) {
    if (housekeeping.isEmpty()) {
      throw new IllegalArgumentException(
          "housekeeping: \"\" (expected: at least one CPU for the rest of the JVM)");
    }
    Set<Integer> left = new HashSet<>(pinned.get());
    left.addAll(keep);
    List<ConfineReport.Entry> moved = new ArrayList<>();
    List<ConfineReport.Entry> already = new ArrayList<>();
    List<ConfineReport.Entry> kept = new ArrayList<>();
    List<ConfineReport.Entry> failed = new ArrayList<>();
    int pid = (int) ProcessHandle.current().pid();
    for (TaskSample t : ThreadStats.snapshot(root, pid).threads()) {
      if (left.contains(t.tid())) {
        kept.add(new ConfineReport.Entry(t.tid(), t.name(), t.allowed(), "pinned"));
      } else if (t.allowed().equals(housekeeping)) {
        already.add(new ConfineReport.Entry(t.tid(), t.name(), t.allowed(), "already there"));
      } else if (!backend.isSupported()) {
        failed.add(new ConfineReport.Entry(t.tid(), t.name(), t.allowed(), backend.reason()));
      } else {
        try {
          backend.setAffinity(t.tid(), housekeeping);
          moved.add(new ConfineReport.Entry(t.tid(), t.name(), t.allowed(), "moved"));
        } catch (AffinityException e) {
          failed.add(new ConfineReport.Entry(t.tid(), t.name(), t.allowed(), e.getMessage()));
        }
      }
    }
    return new ConfineReport(housekeeping, moved, already, kept, failed);
  }

  /**
   * Confines the rest of the JVM to the kit's housekeeping CPUs now and every {@code sweepPeriod}
   * (threads the JVM starts later), until the returned confinement is closed; closing it is the
   * undo (see {@link Confinement}).
   *
   * @param sweepPeriod the time between the end of one sweep and the start of the next, positive
   * @return the confinement in force; close it to stop the sweeps and give the threads their CPUs
   * @throws IllegalArgumentException if the kit has no housekeeping CPU or the period is not
   *     positive
   */
  public Confinement confineUntilClosed(Duration sweepPeriod) {
    if (sweepPeriod.isNegative() || sweepPeriod.isZero()) {
      throw new IllegalArgumentException("sweepPeriod: " + sweepPeriod + " (expected: > 0)");
    }
    return new Confinement(this, housekeeping, Set.of(), reachable, Optional.of(sweepPeriod));
  }

  /**
   * Confines the rest of the JVM to {@code housekeeping} once (no sweeps), except the kit's pinned
   * threads and {@code keep}, until the returned confinement is closed.
   *
   * @param housekeeping the CPUs to send the threads to, at least one
   * @param keep kernel thread ids of further threads to leave alone; may be empty
   * @return the confinement in force; close it to give the threads their CPUs back
   * @throws IllegalArgumentException if {@code housekeeping} is empty
   */
  public Confinement confineUntilClosed(CpuSet housekeeping, Set<Integer> keep) {
    return new Confinement(this, housekeeping, keep, reachable, Optional.empty());
  }

  /** The threads of this JVM now. */
  List<TaskSample> threads() {
    return ThreadStats.snapshot(root, (int) ProcessHandle.current().pid()).threads();
  }

  /** The pinned threads now. */
  Set<Integer> pinnedThreadIds() {
    return pinned.get();
  }

  /** The backend, which moves the threads. */
  AffinityBackend backend() {
    return backend;
  }

  /**
   * Starts a daemon thread that calls {@link #confine()} now and every {@code period}, until the
   * returned handle is closed.
   *
   * @param period the time between the end of one sweep and the start of the next, positive
   * @return the running sweeper; close it to stop the sweeps
   * @throws IllegalArgumentException if {@code period} is not positive
   */
  public Sweeper sweepEvery(Duration period) {
    return new Sweeper(this::confine, period);
  }
}
