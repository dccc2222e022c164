package io.github.affinitykit.disruptor;

import io.github.affinitykit.core.AffinityBackend;
import io.github.affinitykit.core.AffinityException;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.Assignment;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.PinnedThreadFactory;
import io.github.affinitykit.core.RunOutPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The {@link ThreadFactory} a {@link PinnedDisruptor} gives its Disruptor: the i-th thread created
 * is consumer i and is pinned to the layout's CPU for it, through one {@link PinnedThreadFactory}
 * per CPU (pool = that CPU, run-out {@link RunOutPolicy#SHARE}), so that threads planned onto the
 * same CPU share its reservation and the producer can join them with {@link #pinProducer()}.
 * Unpinned consumers get the process's CPUs, never their creator's.
 *
 * <p>Thread safety: {@link #newThread} is called by the thread starting the Disruptor; the other
 * methods may be called from any thread.
 */
final class ConsumerThreads implements ThreadFactory {
  private final AffinityKit kit;
  private final String name;
  private final Layout layout;
  private final Map<Integer, PinnedThreadFactory> byCpu = new TreeMap<>(); // guarded by this
  private final List<Thread> threads = new ArrayList<>(); // guarded by this
  private final AtomicIntegerArray tids;
  private final CountDownLatch running;
  private String pendingName = ""; // guarded by this

  ConsumerThreads(AffinityKit kit, String name, Layout layout) {
    this.kit = kit;
    this.name = name;
    this.layout = layout;
    this.tids = new AtomicIntegerArray(layout.consumers().size());
    this.running = new CountDownLatch(layout.consumers().size());
    for (int i = 0; i < tids.length(); i++) {
      tids.set(i, -1);
    }
  }

  @Override
  public synchronized Thread newThread(Runnable processor) {
    int index = threads.size();
    String threadName = name + "-consumer-" + index;
    int cpu = index < tids.length() ? layout.consumerCpu(index) : -1;
    Runnable task =
        () -> {
          if (index < tids.length()) {
            tids.set(index, kit.backend().currentThreadId());
            running.countDown();
          }
          processor.run();
        };
    Thread t;
    if (cpu >= 0) {
      pendingName = threadName;
      t = factory(cpu).newThread(task);
    } else {
      t = plain(threadName, unpinned(task));
    }
    threads.add(t);
    return t;
  }

  private synchronized PinnedThreadFactory factory(int cpu) {
    return byCpu.computeIfAbsent(
        cpu,
        c ->
            kit.threadFactory(name + "-cpu" + c)
                .pool(CpuSet.of(c))
                .runOut(RunOutPolicy.SHARE)
                .delegate(r -> plain(pendingName, r))
                .build());
  }

  private static Thread plain(String threadName, Runnable r) {
    Thread t = new Thread(r, threadName);
    t.setDaemon(true);
    return t;
  }

  /** A thread started by a pinned thread would inherit its CPU: give it the process's CPUs. */
  private Runnable unpinned(Runnable task) {
    return () -> {
      AffinityBackend backend = kit.backend();
      if (backend.isSupported()) {
        try {
          CpuSet all = kit.host().reachable();
          if (!backend.getAffinity(0).equals(all)) {
            backend.setAffinity(0, all);
          }
        } catch (AffinityException e) {
          // Unpinned either way; the mask it inherited is all we lose.
        }
      }
      task.run();
    };
  }

  /** Pins the calling thread to the producer's planned CPU, sharing it with consumers there. */
  CpuLease pinProducer() {
    return factory(layout.producer().cpu()).pinCurrentThread();
  }

  synchronized int created() {
    return threads.size();
  }

  boolean awaitRunning(Duration timeout) throws InterruptedException {
    return running.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** Returns consumer i's kernel thread id, -1 until it runs or where unknown. */
  int tid(int index) {
    return tids.get(index);
  }

  /** Returns consumer i's assignment, or an UNPINNED one for consumers not pinned. */
  synchronized Assignment assignment(int index) {
    String threadName = name + "-consumer-" + index;
    int cpu = layout.consumerCpu(index);
    if (cpu >= 0 && byCpu.containsKey(cpu)) {
      for (Assignment a : byCpu.get(cpu).assignments()) {
        if (a.threadName().equals(threadName)) {
          return a;
        }
      }
    }
    return new Assignment(
        threadName, tid(index), -1, LeaseStatus.UNPINNED, layout.consumers().get(index).reason());
  }

  /** Waits for every thread to end; returns those still alive after {@code timeout}. */
  List<Thread> join(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<Thread> alive = new ArrayList<>();
    for (Thread t : snapshot()) {
      long left = deadline - System.nanoTime();
      if (left > 0) {
        TimeUnit.NANOSECONDS.timedJoin(t, left);
      }
      if (t.isAlive()) {
        alive.add(t);
      }
    }
    return alive;
  }

  /** Returns the threads not ended yet, without waiting. */
  List<Thread> alive() {
    return snapshot().stream().filter(Thread::isAlive).toList();
  }

  private synchronized List<Thread> snapshot() {
    return List.copyOf(threads);
  }

  /** Frees the reservations of threads created but never started. */
  synchronized void close() {
    byCpu.values().forEach(PinnedThreadFactory::close);
  }
}
