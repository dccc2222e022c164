package io.github.affinitykit.disruptor.demo;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.Assignment;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.PinnedThreadFactory;
import io.github.affinitykit.core.placement.Placement;
import io.github.affinitykit.core.placement.RunOutPolicy;
import io.github.affinitykit.disruptor.Pinning;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.Collectors;

/**
 * N consumers fed the way people write it without a Disruptor: one queue per consumer, the producer
 * putting each event into every queue. Pinned consumers come from a {@link PinnedThreadFactory}
 * with the Disruptor's placements ({@code DIFFERENT_CORE, ANY}, run-out SHARE); with {@link
 * Pinning#ALL} the producer is pinned first through the same factory, as {@code PinnedDisruptor}
 * plans its producer first.
 *
 * <p>Thread safety: as {@link Pipeline}.
 */
final class QueuePipeline implements Pipeline {
  private static final long TIMEOUT_S = 10;

  private final AffinityKit kit;
  private final List<Lane> lanes = new ArrayList<>();
  private final List<Tally> tallies = new ArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  private final AtomicIntegerArray tids;
  private final CountDownLatch running;
  private final Optional<PinnedThreadFactory> factory;
  private Optional<CpuLease> producer = Optional.empty();

  private QueuePipeline(AffinityKit kit, int consumers, Pinning pinning) {
    this.kit = kit;
    this.tids = new AtomicIntegerArray(consumers);
    this.running = new CountDownLatch(consumers);
    this.factory =
        pinning == Pinning.UNPINNED
            ? Optional.empty()
            : Optional.of(
                PinnedThreadFactory.builder(
                        kit.group("cmp-q-consumer")
                            .placements(Placement.DIFFERENT_CORE, Placement.ANY)
                            .runOut(RunOutPolicy.SHARE))
                    .build());
  }

  /**
   * Starts {@code consumers} consumer threads on queues of {@code capacity} for the queue contender
   * {@code c}; returns once every consumer runs (and, for {@link Pinning#ALL}, the calling thread
   * is pinned).
   */
  static QueuePipeline start(
      AffinityKit kit, Contender c, int consumers, Pinning pinning, int capacity)
      throws InterruptedException {
    QueuePipeline p = new QueuePipeline(kit, consumers, pinning);
    try {
      if (pinning == Pinning.ALL) {
        p.producer = p.factory.map(PinnedThreadFactory::pinCurrentThread);
      }
      ThreadFactory threads =
          p.factory.<ThreadFactory>map(f -> f).orElse(r -> new Thread(r, "cmp-q-consumer"));
      for (int i = 0; i < consumers; i++) {
        p.lanes.add(Lane.of(c, capacity));
        p.tallies.add(new Tally());
        Thread t = threads.newThread(p.consumer(i));
        t.setDaemon(true);
        p.threads.add(t);
      }
      p.threads.forEach(Thread::start);
      if (!p.running.await(TIMEOUT_S, TimeUnit.SECONDS)) {
        throw new IllegalStateException("consumers: not all running after " + TIMEOUT_S + " s");
      }
      return p;
    } catch (RuntimeException | InterruptedException e) {
      p.close();
      throw e;
    }
  }

  private Runnable consumer(int i) {
    Lane lane = lanes.get(i);
    Tally tally = tallies.get(i);
    return () -> {
      tids.set(i, kit.backend().currentThreadId());
      running.countDown();
      try {
        while (true) {
          Message m = lane.take();
          tally.on(m.value(), m.intendedNanos());
        }
      } catch (InterruptedException e) {
        // stopped by close()
      }
    };
  }

  @Override
  public void publish(long value, long intendedNanos) throws InterruptedException {
    Message m = new Message(value, intendedNanos);
    for (int i = 0; i < lanes.size(); i++) {
      lanes.get(i).put(m);
    }
  }

  @Override
  public List<Tally> tallies() {
    return List.copyOf(tallies);
  }

  @Override
  public List<Integer> consumerThreadIds() {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < tids.length(); i++) {
      out.add(tids.get(i));
    }
    return out;
  }

  @Override
  public String cpus() {
    String p = producer.filter(CpuLease::isBound).map(l -> "" + l.cpu()).orElse("*");
    List<Assignment> a = factory.map(PinnedThreadFactory::assignments).orElse(List.of());
    String c =
        a.isEmpty()
            ? threads.stream().map(t -> "*").collect(Collectors.joining(","))
            : a.stream()
                .filter(x -> x.threadName().startsWith("cmp-q-consumer"))
                .map(Assignments::cpu)
                .collect(Collectors.joining(","));
    return p + "/" + c;
  }

  @Override
  public List<String> assignments() {
    List<String> out = new ArrayList<>();
    if (producer.isEmpty()) {
      out.add("producer unpinned");
    }
    if (factory.isEmpty()) {
      out.add("consumers unpinned");
    }
    factory.ifPresent(
        f ->
            f.assignments()
                .forEach(
                    a ->
                        out.add(
                            (a.threadName().startsWith("cmp-q-consumer") ? "" : "producer ")
                                + Assignments.line(a))));
    return out;
  }

  @Override
  public void close() {
    threads.forEach(Thread::interrupt);
    List<Thread> alive = new ArrayList<>();
    for (Thread t : threads) {
      try {
        t.join(TimeUnit.SECONDS.toMillis(TIMEOUT_S));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // stop waiting, still free what can be freed
      }
      if (t.isAlive()) {
        alive.add(t);
      }
    }
    producer.ifPresent(CpuLease::close);
    factory.ifPresent(PinnedThreadFactory::close);
    if (!alive.isEmpty()) {
      throw new IllegalStateException("close: consumers still running: " + alive);
    }
  }
}
