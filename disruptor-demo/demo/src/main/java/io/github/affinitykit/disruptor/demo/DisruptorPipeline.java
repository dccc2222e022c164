package io.github.affinitykit.disruptor.demo;

import com.lmax.disruptor.RingBuffer;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.WaitAdvice;
import io.github.affinitykit.disruptor.PinnedDisruptor;
import io.github.affinitykit.disruptor.PinnedDisruptorBuilder;
import io.github.affinitykit.disruptor.Pinning;
import io.github.affinitykit.disruptor.WaitKind;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * N consumers on one {@link PinnedDisruptor} ring, each handler wired on its own ({@code
 * handleEventsWith} once per consumer), so each sees every event: the Disruptor's multicast, beside
 * {@link QueuePipeline}'s queue per consumer. Pinning is the library's: {@code PinnedDisruptor}
 * plans, reserves and binds.
 *
 * <p>Thread safety: as {@link Pipeline}.
 */
final class DisruptorPipeline implements Pipeline {
  private final PinnedDisruptor<DemoEvent> pd;
  private final List<Tally> tallies = new ArrayList<>();
  private RingBuffer<DemoEvent> ring;

  private DisruptorPipeline(PinnedDisruptor<DemoEvent> pd) {
    this.pd = pd;
  }

  /**
   * Starts {@code consumers} consumers with {@code strategy} on a ring of {@code ringSize}; returns
   * once every consumer runs (and, for {@link Pinning#ALL}, the calling thread is pinned).
   */
  static DisruptorPipeline start(
      AffinityKit kit, WaitKind strategy, int consumers, Pinning pinning, int ringSize)
      throws InterruptedException {
    PinnedDisruptor<DemoEvent> pd =
        PinnedDisruptor.builder(kit, DemoEvent::new)
            .consumers(consumers)
            .pinning(pinning)
            .ringSize(ringSize)
            .waitStrategy(strategy)
            .group(PinnedDisruptorBuilder.defaultGroup(kit, "cmp"))
            .build();
    DisruptorPipeline p = new DisruptorPipeline(pd);
    try {
      for (int i = 0; i < consumers; i++) {
        Tally t = new Tally();
        p.tallies.add(t);
        pd.disruptor().handleEventsWith((e, seq, end) -> t.on(e.value(), e.intendedNanos()));
      }
      p.ring = pd.start();
      if (pinning == Pinning.ALL) {
        pd.pinProducer();
      }
      return p;
    } catch (RuntimeException | InterruptedException e) {
      pd.close();
      throw e;
    }
  }

  @Override
  public void publish(long value, long intendedNanos) {
    long seq = ring.next();
    ring.get(seq).set(value, intendedNanos);
    ring.publish(seq);
  }

  @Override
  public List<Tally> tallies() {
    return List.copyOf(tallies);
  }

  @Override
  public List<Integer> consumerThreadIds() {
    return pd.consumerThreadIds();
  }

  @Override
  public String cpus() {
    WaitAdvice producer = pd.choice().producer();
    return (producer.cpu() < 0 ? "*" : "" + producer.cpu())
        + "/"
        + pd.consumerAssignments().stream().map(Assignments::cpu).collect(Collectors.joining(","));
  }

  @Override
  public List<String> assignments() {
    List<String> out = new ArrayList<>();
    out.add(pd.choice().producer().toString());
    pd.consumerAssignments().forEach(a -> out.add(Assignments.line(a)));
    return out;
  }

  @Override
  public void close() {
    pd.close();
  }
}
