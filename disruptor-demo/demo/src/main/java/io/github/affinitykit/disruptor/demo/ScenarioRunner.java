package io.github.affinitykit.disruptor.demo;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.dsl.EventHandlerGroup;
import io.github.affinitykit.audit.ThreadStats;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.disruptor.PinnedDisruptor;
import io.github.affinitykit.disruptor.PinnedDisruptorBuilder;
import io.github.affinitykit.disruptor.Pinning;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Runs one {@link Scenario}: builds the pinned Disruptor, warms it, then measures a burst window
 * (throughput, CPUs used), a paced window (latency, consumer context switches) and an idle window
 * (CPUs used with nothing to do), and stops it.
 *
 * <p>Thread safety: confined to the calling thread, which is the producer.
 */
final class ScenarioRunner {
  private static final long DRAIN_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(20);

  private final AffinityKit kit;
  private final DemoOptions o;

  ScenarioRunner(AffinityKit kit, DemoOptions options) {
    this.kit = kit;
    this.o = options;
  }

  Result run(Scenario s) throws InterruptedException {
    PinnedDisruptorBuilder<DemoEvent> b =
        PinnedDisruptor.builder(kit, DemoEvent::new)
            .consumers(s.consumers())
            .pinning(s.pinning())
            .ringSize(o.ringSize())
            .group(PinnedDisruptorBuilder.defaultGroup(kit, "demo"));
    s.strategy().ifPresent(b::waitStrategy);
    if (s.strategy().isEmpty() && o.auditMs() > 0 && s.pinning() != Pinning.UNPINNED) {
      b.auditExclusivity(Duration.ofMillis(o.auditMs()));
    }
    PinnedDisruptor<DemoEvent> pd = b.build();
    try {
      List<StageHandler> stages = wire(pd, s.consumers());
      RingBuffer<DemoEvent> ring = pd.start();
      if (s.pinning() == Pinning.ALL) {
        pd.pinProducer();
      }
      return measure(s, pd, stages, new Producer(ring, stages.get(stages.size() - 1)));
    } finally {
      pd.close();
    }
  }

  private static List<StageHandler> wire(PinnedDisruptor<DemoEvent> pd, int n) {
    List<StageHandler> stages = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      stages.add(new StageHandler(i));
    }
    EventHandlerGroup<DemoEvent> g = pd.disruptor().handleEventsWith(stages.get(0));
    for (int i = 1; i < n; i++) {
      g = g.then(stages.get(i));
    }
    return stages;
  }

  private Result measure(
      Scenario s, PinnedDisruptor<DemoEvent> pd, List<StageHandler> stages, Producer p)
      throws InterruptedException {
    Notes note = new Notes();
    p.burst(TimeUnit.MILLISECONDS.toNanos(Math.max(10, o.burstMs() / 5))); // warm this wiring
    note.check(p.drain(DRAIN_TIMEOUT_NS), "warm-up not drained");

    HostLoad h0 = HostLoad.read();
    ThreadStats b0 = ThreadStats.snapshot();
    long t0 = System.nanoTime();
    long burst = p.burst(TimeUnit.MILLISECONDS.toNanos(o.burstMs()));
    note.check(p.drain(DRAIN_TIMEOUT_NS), "burst not drained");
    long t1 = System.nanoTime();
    ThreadStats b1 = ThreadStats.snapshot();

    StageHandler last = stages.get(stages.size() - 1);
    last.recording(true);
    long nominalNs = o.pacedEvents() * 1_000_000_000L / o.rate();
    ThreadStats p0 = ThreadStats.snapshot();
    long paced =
        p.paced(o.pacedEvents(), o.rate(), System.nanoTime() + 4 * nominalNs + 1_000_000_000L);
    note.check(p.drain(DRAIN_TIMEOUT_NS), "paced not drained");
    ThreadStats p1 = ThreadStats.snapshot();
    last.recording(false);
    note.check(paced == o.pacedEvents(), "paced cut at " + paced + " events");

    ThreadStats i0 = ThreadStats.snapshot();
    Thread.sleep(o.idleMs());
    ThreadStats i1 = ThreadStats.snapshot();
    double others = HostLoad.read().othersSince(h0, i1.processCpuNs() - b0.processCpuNs());

    long errors = stages.stream().mapToLong(StageHandler::errors).sum();
    errors += Math.abs(p.published() - last.processed());
    Histogram h = last.latencyNs();
    List<Integer> tids = pd.consumerThreadIds();
    return new Result(
        s,
        pd.choice(),
        new Measured(
            burst * 1e9 / (t1 - t0),
            Latency.of(h),
            Switches.between(p0, p1, tids),
            Usage.cores(b0, b1),
            Usage.cores(i0, i1),
            others,
            errors,
            note.toString()));
  }
}
