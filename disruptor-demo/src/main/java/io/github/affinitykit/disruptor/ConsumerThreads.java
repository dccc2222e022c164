package io.github.affinitykit.disruptor;

import io.github.affinitykit.core.Assignment;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.CpuIsolation;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.Seat;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The Disruptor adapter over a {@link CpuGroup}: the {@link ThreadFactory} a {@link
 * PinnedDisruptor} gives its Disruptor. The i-th thread created is consumer i and binds consumer
 * i's seat before its event processor runs; the producer binds its own seat with {@link
 * #pinProducer()}. Planning, reservation, run-out (threads planned onto one CPU share it) and
 * binding are the group's.
 *
 * <p>Thread safety: {@link #newThread} is called by the thread starting the Disruptor; the other
 * methods may be called from any thread.
 */
final class ConsumerThreads implements ThreadFactory {
  private final CpuGroup group;
  private final Optional<Seat> producer;
  private final List<Seat> consumers;
  private final List<Thread> threads = new ArrayList<>(); // guarded by this
  private final AtomicIntegerArray tids;
  private final CountDownLatch running;

  private ConsumerThreads(CpuGroup group, Optional<Seat> producer, List<Seat> consumers) {
    this.group = group;
    this.producer = producer;
    this.consumers = List.copyOf(consumers);
    this.tids = new AtomicIntegerArray(consumers.size());
    this.running = new CountDownLatch(consumers.size());
    for (int i = 0; i < tids.length(); i++) {
      tids.set(i, -1);
    }
  }

  /**
   * Takes the seats: the producer's first when {@code pinning} is {@link Pinning#ALL} (so it gets a
   * core of its own whenever the pool has one), then one per consumer.
   *
   * @throws IllegalStateException if a thread finds no CPU and the run-out policy is FAIL
   */
  static ConsumerThreads seat(CpuGroup group, Pinning pinning, int consumers) {
    List<String> members = new ArrayList<>();
    if (pinning == Pinning.ALL) {
      members.add(group.name() + "-producer");
    }
    for (int i = 0; i < consumers; i++) {
      members.add(group.name() + "-consumer-" + i);
    }
    try {
      List<Seat> seats = group.joinAll(members); // all or nothing; isolates if the group asks
      Optional<Seat> producer =
          pinning == Pinning.ALL ? Optional.of(seats.get(0)) : Optional.empty();
      return new ConsumerThreads(
          group, producer, seats.subList(seats.size() - consumers, seats.size()));
    } catch (RuntimeException e) {
      group.close();
      throw e;
    }
  }

  /** Returns the layout the seats make. */
  PipelineAssignments layout(Pinning pinning) {
    Assignment p =
        producer
            .map(Seat::assignment)
            .orElseGet(
                () ->
                    new Assignment(
                        group.name() + "-producer",
                        -1,
                        -1,
                        LeaseStatus.UNPINNED,
                        "pinning " + pinning));
    return new PipelineAssignments(
        pinning, group.pool(), p, consumers.stream().map(Seat::assignment).toList());
  }

  @Override
  public synchronized Thread newThread(Runnable processor) {
    int index = threads.size();
    Runnable task = index < consumers.size() ? consumer(index, processor) : processor;
    Thread t = new Thread(task, group.name() + "-consumer-" + index);
    t.setDaemon(true);
    threads.add(t);
    return t;
  }

  private Runnable consumer(int index, Runnable processor) {
    Seat seat = consumers.get(index);
    return seat.bound(
        () -> {
          tids.set(index, seat.tid());
          running.countDown();
          processor.run();
        });
  }

  /** Binds the calling thread to the producer's seat, sharing it with consumers planned there. */
  CpuLease pinProducer() {
    return producer.orElseThrow().bind();
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

  /** Returns consumer i's assignment. */
  Assignment assignment(int index) {
    return consumers.get(index).assignment();
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

  /** The isolation the group made, if it asked for one. */
  Optional<CpuIsolation> isolation() {
    return group.isolation();
  }

  /**
   * Frees every CPU no thread is bound to now (seats of threads never started included); a CPU a
   * thread still runs on is freed when that thread lets go.
   */
  void close() {
    group.close();
  }
}
