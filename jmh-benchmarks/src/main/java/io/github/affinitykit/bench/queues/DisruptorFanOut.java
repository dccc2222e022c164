package io.github.affinitykit.bench.queues;

import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.RingBuffer;
import io.github.affinitykit.bench.ThreadRoles;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.disruptor.PinnedDisruptor;
import io.github.affinitykit.disruptor.PinnedDisruptorBuilder;
import io.github.affinitykit.disruptor.Pinning;
import io.github.affinitykit.disruptor.WaitKind;
import java.util.ArrayList;
import java.util.List;

/**
 * N consumers on one {@link PinnedDisruptor} ring, each handler wired on its own so each sees every
 * event (multicast); pinned, when asked, by the library.
 *
 * <p>Thread safety: as {@link FanOut}.
 */
final class DisruptorFanOut implements FanOut {
  /** The ring's slot. */
  private static final class Slot {
    private long value;
  }

  /** Counts what it takes; tags its thread for the profiler. */
  private static final class Counter implements EventHandler<Slot> {
    private volatile long taken;

    @Override
    public void onStart() {
      ThreadRoles.tag("consumer");
    }

    @Override
    public void onEvent(Slot slot, long sequence, boolean endOfBatch) {
      taken = slot.value + 1;
    }

    @Override
    public void onShutdown() {
      ThreadRoles.finish();
    }
  }

  private final PinnedDisruptor<Slot> pd;
  private final List<Counter> counters = new ArrayList<>();
  private final RingBuffer<Slot> ring;

  DisruptorFanOut(AffinityKit kit, WaitKind strategy, int consumers, Pinning pinning)
      throws InterruptedException {
    pd =
        PinnedDisruptor.builder(kit, Slot::new)
            .consumers(consumers)
            .pinning(pinning)
            .waitStrategy(strategy)
            .group(PinnedDisruptorBuilder.defaultGroup(kit, "bench"))
            .build();
    try {
      for (int i = 0; i < consumers; i++) {
        Counter c = new Counter();
        counters.add(c);
        pd.disruptor().handleEventsWith(c);
      }
      ring = pd.start();
      if (pinning == Pinning.ALL) {
        pd.pinProducer();
      }
    } catch (RuntimeException | InterruptedException e) {
      pd.close();
      throw e;
    }
  }

  @Override
  public void publish(long value) {
    long seq = ring.next();
    ring.get(seq).value = value;
    ring.publish(seq);
  }

  @Override
  public long slowest() {
    long min = Long.MAX_VALUE;
    for (int i = 0; i < counters.size(); i++) {
      min = Math.min(min, counters.get(i).taken);
    }
    return min;
  }

  @Override
  public void close() {
    pd.close();
  }
}
