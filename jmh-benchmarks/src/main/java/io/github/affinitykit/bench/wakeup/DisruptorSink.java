package io.github.affinitykit.bench.wakeup;

import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.BusySpinWaitStrategy;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.SleepingWaitStrategy;
import com.lmax.disruptor.WaitStrategy;
import com.lmax.disruptor.YieldingWaitStrategy;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import io.github.affinitykit.bench.ThreadRoles;
import java.util.concurrent.ThreadFactory;

/**
 * A Disruptor 4 ring with one consumer and the named wait strategy.
 *
 * <p>Thread safety: one producer.
 */
final class DisruptorSink implements EventSink {
  /** The ring's slot. */
  private static final class Slot {
    private long value;
  }

  private final Disruptor<Slot> disruptor;
  private final RingBuffer<Slot> ring;
  private volatile long consumed;

  DisruptorSink(String strategy, long workNs, ThreadFactory threads) {
    ThreadFactory tagged =
        r ->
            threads.newThread(
                () -> {
                  ThreadRoles.tag("consumer");
                  r.run();
                  ThreadRoles.finish();
                });
    disruptor = new Disruptor<>(Slot::new, 1024, tagged, ProducerType.SINGLE, strategy(strategy));
    disruptor.handleEventsWith(
        (slot, sequence, endOfBatch) -> {
          EventSink.work(workNs);
          consumed = slot.value + 1;
        });
    ring = disruptor.start();
  }

  static WaitStrategy strategy(String name) {
    return switch (name) {
      case "blocking" -> new BlockingWaitStrategy();
      case "sleeping" -> new SleepingWaitStrategy();
      case "yielding" -> new YieldingWaitStrategy();
      case "busyspin" -> new BusySpinWaitStrategy();
      default ->
          throw new IllegalArgumentException(
              "strategy: " + name + " (expected: blocking, sleeping, yielding, busyspin)");
    };
  }

  @Override
  public void publish() {
    ring.publishEvent((slot, sequence) -> slot.value = sequence);
  }

  @Override
  public long consumed() {
    return consumed;
  }

  @Override
  public void stop() {
    disruptor.halt();
  }
}
