package io.github.affinitykit.disruptor.demo;

import io.github.affinitykit.audit.ThreadStats;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.disruptor.Pinning;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/**
 * Runs one {@code compare-queues} row: starts the pipeline, warms it, measures a burst (throughput,
 * CPUs used) and a paced window (latency, consumer context switches, CPUs used), and stops it.
 *
 * <p>Thread safety: confined to the calling thread, which is the producer.
 */
final class CompareRunner {
  private static final long DRAIN_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);
  private static final long DRAIN_POLL_NS = 20_000;

  private final AffinityKit kit;
  private final CompareOptions o;
  private long next;

  CompareRunner(AffinityKit kit, CompareOptions options) {
    this.kit = kit;
    this.o = options;
  }

  /** Measures {@code c} with {@code consumers} consumers under {@code pinning}. */
  Comparison run(Contender c, int consumers, Pinning pinning) throws InterruptedException {
    Pipeline p =
        c.waitKind().isPresent()
            ? DisruptorPipeline.start(kit, c.waitKind().get(), consumers, pinning, o.ringSize())
            : QueuePipeline.start(kit, c, consumers, pinning, o.ringSize());
    try {
      return measure(c, consumers, pinning, p);
    } finally {
      p.close();
    }
  }

  private Comparison measure(Contender c, int consumers, Pinning pinning, Pipeline p)
      throws InterruptedException {
    Notes note = new Notes();
    burst(p, TimeUnit.MILLISECONDS.toNanos(Math.max(5, o.burstMs() / 5))); // warm this wiring
    note.check(drain(p), "warm-up not drained");

    HostLoad h0 = HostLoad.read();
    ThreadStats b0 = ThreadStats.snapshot();
    long t0 = System.nanoTime();
    long burst = burst(p, TimeUnit.MILLISECONDS.toNanos(o.burstMs()));
    note.check(drain(p), "burst not drained");
    long t1 = System.nanoTime();
    ThreadStats b1 = ThreadStats.snapshot();

    p.tallies().forEach(t -> t.recording(true));
    long nominalNs = o.pacedEvents() * 1_000_000_000L / o.rate();
    ThreadStats p0 = ThreadStats.snapshot();
    long paced = paced(p, System.nanoTime() + 4 * nominalNs + 1_000_000_000L);
    note.check(drain(p), "paced not drained");
    ThreadStats p1 = ThreadStats.snapshot();
    p.tallies().forEach(t -> t.recording(false));
    note.check(paced == o.pacedEvents(), "paced cut at " + paced + " events");
    double others = HostLoad.read().othersSince(h0, p1.processCpuNs() - b0.processCpuNs());

    Histogram h = new Histogram(60_000_000_000L, 3);
    p.tallies().forEach(t -> h.add(t.latencyNs()));
    List<Integer> tids = p.consumerThreadIds();
    return new Comparison(
        c,
        consumers,
        pinning,
        p.cpus(),
        ranOn(p1, tids),
        p.assignments(),
        next,
        p.tallies().stream().mapToLong(Tally::processed).sum(),
        new Measured(
            burst * 1e9 / (t1 - t0),
            Latency.of(h),
            Switches.between(p0, p1, tids),
            Usage.cores(b0, b1),
            Usage.cores(p0, p1),
            others,
            p.tallies().stream().mapToLong(Tally::errors).sum(),
            note.toString()));
  }

  /** Publishes flat out for {@code nanos}; returns how many. */
  private long burst(Pipeline p, long nanos) throws InterruptedException {
    long start = next;
    long end = System.nanoTime() + nanos;
    do {
      for (int i = 0; i < 256; i++) {
        p.publish(next++, 0);
      }
    } while (System.nanoTime() < end);
    return next - start;
  }

  /**
   * Publishes {@code pacedEvents} at {@code rate}, each stamped with its intended send time (a late
   * send counts: no coordinated omission), yielding between events as {@link Producer} does.
   */
  private long paced(Pipeline p, long deadlineNanos) throws InterruptedException {
    double intervalNs = 1e9 / o.rate();
    long start = System.nanoTime() + 100_000;
    long i = 0;
    for (; i < o.pacedEvents(); i++) {
      long intended = start + (long) (i * intervalNs);
      long now;
      while ((now = System.nanoTime()) < intended) {
        Thread.yield();
      }
      if (now > deadlineNanos) {
        break;
      }
      p.publish(next++, intended);
    }
    return i;
  }

  /** Waits until every consumer has everything published; false after the timeout. */
  private boolean drain(Pipeline p) {
    long end = System.nanoTime() + DRAIN_TIMEOUT_NS;
    while (p.tallies().stream().anyMatch(t -> t.processed() < next)) {
      if (System.nanoTime() > end) {
        return false;
      }
      LockSupport.parkNanos(DRAIN_POLL_NS);
    }
    return true;
  }

  private String ranOn(ThreadStats s, List<Integer> tids) {
    String producer =
        s.thread(kit.backend().currentThreadId()).map(t -> "" + t.lastCpu()).orElse("?");
    return producer
        + "/"
        + tids.stream()
            .map(tid -> s.thread(tid).map(t -> "" + t.lastCpu()).orElse("?"))
            .collect(Collectors.joining(","));
  }
}
