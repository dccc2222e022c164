package io.github.affinitykit.bench.numa;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.CpuGroupBuilder;
import io.github.affinitykit.numa.MemoryPolicy;
import io.github.affinitykit.numa.NodeMemory;
import io.github.affinitykit.numa.PageNodes;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The fourth seed's experiment: threads pinned one per CPU, each sweeping its own share of memory
 * (read, multiply, write every long) pass after pass, with the memory put three ways ({@link
 * NumaMode}); it times each pass over all shares and asks the kernel ({@code move_pages}) where
 * every share's pages are.
 *
 * <p>Thread safety: one {@link #run} at a time; it starts and joins its own threads.
 */
final class NumaExperiment {
  private static final long JOIN_MS = TimeUnit.MINUTES.toMillis(10);

  private final AffinityKit kit;
  private final List<Integer> cpus;
  private final Map<Integer, Integer> nodeOf;
  private final int shareBytes;
  private final int passes;
  private final NodeMemory memory = NodeMemory.system();
  private final LongAdder sink = new LongAdder(); // the workers' sums: the sweeps are not dead code

  /**
   * An experiment with one worker on each of {@code cpus}.
   *
   * @param nodeOf each CPU's NUMA node
   * @param shareBytes each worker's share, a whole number of MiB
   * @param passes the passes timed
   */
  NumaExperiment(
      AffinityKit kit,
      List<Integer> cpus,
      Map<Integer, Integer> nodeOf,
      int shareBytes,
      int passes) {
    this.kit = Objects.requireNonNull(kit, "kit");
    this.cpus = List.copyOf(cpus);
    this.nodeOf = Map.copyOf(nodeOf);
    this.shareBytes = shareBytes;
    this.passes = passes;
  }

  /**
   * Puts the memory as {@code mode} says, then times the passes. The mappings are unmapped once
   * unreachable, after a garbage collection ({@link NodeMemory}); the JVM does not count them as
   * direct memory, so the caller collects between modes.
   *
   * @throws IllegalStateException if the toucher or a worker failed (its exception the cause) or
   *     stalled
   */
  ModeResult run(NumaMode mode) throws InterruptedException {
    int t = cpus.size();
    ByteBuffer[] shares = new ByteBuffer[t];
    CyclicBarrier barrier = new CyclicBarrier(t + 1);
    AtomicReference<Throwable> failed = new AtomicReference<>();
    if (mode != NumaMode.LOCAL) { // one mapping a share, all first touched by one thread
      MemoryPolicy policy =
          mode == NumaMode.INTERLEAVE
              ? MemoryPolicy.interleave(nodeOf.values().stream().mapToInt(i -> i).toArray())
              : MemoryPolicy.DEFAULT;
      for (int i = 0; i < t; i++) {
        shares[i] = memory.allocate(shareBytes, policy);
      }
      boolean ended =
          onCpus(
              group("toucher", List.of(cpus.get(0)), MemoryPolicy.DEFAULT),
              1,
              i ->
                  guarded(
                      () -> Arrays.stream(shares).forEach(NumaExperiment::touch), barrier, failed));
      if (failed.get() != null || !ended) { // else the passes would time memory no one placed
        throw new IllegalStateException(
            mode.label() + ": the toucher failed or stalled", failed.get());
      }
    }
    long[] passNanos = new long[passes];
    Thread timer =
        new Thread(() -> guarded(() -> time(barrier, passNanos), barrier, failed), "numa-timer");
    timer.start();
    MemoryPolicy workers = mode == NumaMode.LOCAL ? MemoryPolicy.LOCAL : MemoryPolicy.DEFAULT;
    boolean ended =
        onCpus(
            group("worker", cpus, workers),
            t,
            i -> guarded(() -> sweep(shares, i, barrier), barrier, failed));
    timer.join(JOIN_MS);
    if (failed.get() != null || timer.isAlive() || !ended) {
      throw new IllegalStateException(mode.label() + ": a worker failed or stalled", failed.get());
    }
    return result(mode, shares, passNanos);
  }

  /** Worker {@code i}'s task: in LOCAL, first its own share, first touched on its own node. */
  private void sweep(ByteBuffer[] shares, int i, CyclicBarrier barrier) {
    if (shares[i] == null) {
      shares[i] = memory.allocate(shareBytes, MemoryPolicy.DEFAULT);
      touch(shares[i]);
    }
    work(shares[i], barrier);
  }

  /** Runs {@code task}; a failure is kept (the first) and breaks the barrier for the others. */
  private static void guarded(
      Runnable task, CyclicBarrier barrier, AtomicReference<Throwable> failed) {
    try {
      task.run();
    } catch (RuntimeException | Error e) {
      failed.compareAndSet(null, e);
      barrier.reset();
    }
  }

  private ModeResult result(NumaMode mode, ByteBuffer[] shares, long[] passNanos) {
    Map<Integer, Integer> byNode = new TreeMap<>();
    long own = 0;
    int untouched = 0;
    int unknown = 0;
    for (int i = 0; i < shares.length; i++) {
      PageNodes p = memory.pageNodes(shares[i]);
      p.pagesByNode().forEach((n, c) -> byNode.merge(n, c, Integer::sum));
      own += p.pagesOn(nodeOf.get(cpus.get(i)));
      untouched += p.untouched();
      unknown += p.unknown();
    }
    long[] sorted = passNanos.clone();
    Arrays.sort(sorted);
    return new ModeResult(
        mode,
        sorted[sorted.length / 2],
        new PageNodes(new TreeMap<>(byNode), untouched, unknown, 0),
        own);
  }

  private CpuGroup group(String name, List<Integer> on, MemoryPolicy policy) {
    CpuGroupBuilder b = kit.group(name).cpus(on.stream().mapToInt(i -> i).toArray());
    return b.memoryPolicy(policy).build();
  }

  /**
   * {@code members} tasks, each on a thread of its own bound to a seat of group; waits for all.
   * Returns whether every thread ended within the join timeout.
   */
  private static boolean onCpus(CpuGroup group, int members, IntTask task)
      throws InterruptedException {
    try (group) {
      var seats = group.joinAll(members);
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < seats.size(); i++) {
        int index = i;
        threads.add(new Thread(seats.get(i).bound(() -> task.run(index)), group.name() + i));
      }
      threads.forEach(Thread::start);
      boolean ended = true;
      for (Thread th : threads) {
        th.join(JOIN_MS);
        ended &= !th.isAlive();
      }
      return ended;
    }
  }

  /** The first touch: one write per page. */
  private static void touch(ByteBuffer b) {
    for (int i = 0; i < b.capacity(); i += 4096) {
      b.put(i, (byte) 1);
    }
  }

  /** Each pass: wait for the start, sweep the share, wait for the end. */
  private void work(ByteBuffer share, CyclicBarrier barrier) {
    LongBuffer longs = share.duplicate().order(ByteOrder.nativeOrder()).asLongBuffer();
    long sum = 0;
    for (int p = 0; p < passes; p++) {
      await(barrier);
      for (int i = 0; i < longs.capacity(); i++) {
        long v = longs.get(i) * 31 + 1;
        longs.put(i, v);
        sum += v;
      }
      await(barrier);
    }
    sink.add(sum);
  }

  /** The timer's side of the barriers: each pass from its start to its end. */
  private void time(CyclicBarrier barrier, long[] passNanos) {
    for (int p = 0; p < passes; p++) {
      await(barrier);
      long start = System.nanoTime();
      await(barrier);
      passNanos[p] = System.nanoTime() - start;
    }
  }

  private static void await(CyclicBarrier barrier) {
    try {
      barrier.await(JOIN_MS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (BrokenBarrierException | TimeoutException e) {
      throw new IllegalStateException("a worker failed or stalled", e);
    }
  }

  /** A task for worker {@code index}. */
  @FunctionalInterface
  private interface IntTask {
    void run(int index);
  }
}
