package io.github.affinitykit.bench.queues;

import io.github.affinitykit.bench.ThreadRoles;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.PinnedThreadFactory;
import io.github.affinitykit.core.placement.Placement;
import io.github.affinitykit.core.placement.RunOutPolicy;
import io.github.affinitykit.disruptor.Pinning;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Supplier;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;

/**
 * N consumers fed as people write it without a Disruptor: a queue per consumer, each event (a boxed
 * {@code Long}) put into every queue. {@code abq}/{@code lbq} block in {@code put}/{@code take};
 * {@code agrona-spin}/{@code agrona-park} poll Agrona's {@code OneToOneConcurrentArrayQueue} with
 * {@code BusySpinIdleStrategy} or {@code BackoffIdleStrategy} on both ends. Pinned consumers come
 * from a {@link PinnedThreadFactory} (placements {@code DIFFERENT_CORE, ANY}, run-out SHARE); with
 * {@link Pinning#ALL} the producer is pinned first through the same factory.
 *
 * <p>Thread safety: as {@link FanOut}.
 */
final class QueueFanOut implements FanOut {
  private static final int CAPACITY = 1024;

  private final List<Queue<Long>> queues = new ArrayList<>();
  private final Optional<Supplier<IdleStrategy>> idle; // empty: blocking put/take
  private final IdleStrategy producerIdle;
  private final AtomicLongArray taken;
  private final List<Thread> threads = new ArrayList<>();
  private final Optional<PinnedThreadFactory> factory;
  private final Optional<CpuLease> producer;

  QueueFanOut(AffinityKit kit, String kind, int consumers, Pinning pinning) {
    idle =
        switch (kind) {
          case "abq", "lbq" -> Optional.empty();
          case "agrona-spin" -> Optional.of(BusySpinIdleStrategy::new);
          case "agrona-park" -> Optional.of(BackoffIdleStrategy::new);
          default ->
              throw new IllegalArgumentException(
                  "impl: " + kind + " (expected: abq, lbq, agrona-spin, agrona-park)");
        };
    producerIdle = idle.map(Supplier::get).orElse(null);
    taken = new AtomicLongArray(consumers);
    factory =
        pinning == Pinning.UNPINNED
            ? Optional.empty()
            : Optional.of(
                PinnedThreadFactory.builder(
                        kit.group("bench-q-consumer")
                            .placements(Placement.DIFFERENT_CORE, Placement.ANY)
                            .runOut(RunOutPolicy.SHARE))
                    .build());
    producer =
        pinning == Pinning.ALL
            ? factory.map(PinnedThreadFactory::pinCurrentThread)
            : Optional.empty();
    ThreadFactory make = factory.<ThreadFactory>map(f -> f).orElse(Thread::new);
    for (int i = 0; i < consumers; i++) {
      Queue<Long> q =
          kind.equals("lbq")
              ? new java.util.concurrent.LinkedBlockingQueue<>(CAPACITY)
              : kind.equals("abq")
                  ? new ArrayBlockingQueue<>(CAPACITY)
                  : new OneToOneConcurrentArrayQueue<>(CAPACITY);
      queues.add(q);
      Thread t = make.newThread(drain(i, q));
      t.setDaemon(true);
      threads.add(t);
    }
    threads.forEach(Thread::start);
  }

  private Runnable drain(int index, Queue<Long> q) {
    IdleStrategy wait = idle.map(Supplier::get).orElse(null);
    return () -> {
      ThreadRoles.tag("consumer");
      try {
        while (true) {
          Long v = wait == null ? ((BlockingQueue<Long>) q).take() : poll(q, wait);
          taken.lazySet(index, v + 1);
        }
      } catch (InterruptedException e) {
        ThreadRoles.finish(); // stopped by close()
      }
    };
  }

  private static Long poll(Queue<Long> q, IdleStrategy wait) throws InterruptedException {
    Long v;
    while ((v = q.poll()) == null) {
      if (Thread.interrupted()) {
        throw new InterruptedException();
      }
      wait.idle();
    }
    wait.reset();
    return v;
  }

  @Override
  public void publish(long value) throws InterruptedException {
    Long v = value; // what people write: a boxed value (or a message object) per event
    for (int i = 0; i < queues.size(); i++) {
      Queue<Long> q = queues.get(i);
      if (producerIdle == null) {
        ((BlockingQueue<Long>) q).put(v);
      } else {
        while (!q.offer(v)) {
          producerIdle.idle();
        }
        producerIdle.reset();
      }
    }
  }

  @Override
  public long slowest() {
    long min = Long.MAX_VALUE;
    for (int i = 0; i < taken.length(); i++) {
      min = Math.min(min, taken.get(i));
    }
    return min;
  }

  @Override
  public void close() {
    threads.forEach(Thread::interrupt);
    for (Thread t : threads) {
      try {
        t.join(TimeUnit.SECONDS.toMillis(10));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    producer.ifPresent(CpuLease::close);
    factory.ifPresent(PinnedThreadFactory::close);
  }
}
