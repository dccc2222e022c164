package io.github.affinitykit.disruptor;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every event reaches every stage once, in publishing order, after the stage before it: under each
 * wait strategy, 1P→1C and a 1P→3C pipeline, unpinned and pinned. Event counts are bounded (a
 * busy-spinning thread on a shared CPU runs only when the scheduler preempts its neighbour).
 */
@EnabledOnOs(OS.LINUX)
@Timeout(30)
class NoLossNoReorderTest {
  private static final long EVENTS = 10_000;

  @TempDir Path locks;

  private AffinityKit kit() {
    return AffinityKit.create(
        HostCpus.probe(), AffinityBackend.detect(), CpuReservations.inDirectory(locks));
  }

  static Stream<Arguments> strategies() {
    return Stream.of(WaitKind.values())
        .flatMap(k -> Stream.of(Arguments.of(k, 1), Arguments.of(k, 3)));
  }

  private void run(PinnedDisruptor<TestEvent> pd, int stages, long events) throws Exception {
    try {
      List<CheckingHandler> hs = Pipelines.wire(pd, stages, events, () -> "");
      Pipelines.publish(pd.start(), events);
      for (CheckingHandler h : hs) {
        assertThat(h.done().await(20, TimeUnit.SECONDS)).as("stage done").isTrue();
      }
      pd.disruptor().shutdown(10, TimeUnit.SECONDS);
      for (CheckingHandler h : hs) {
        assertThat(h.firstError()).isEmpty();
        assertThat(h.seen()).isEqualTo(events);
      }
    } finally {
      pd.close();
    }
  }

  @ParameterizedTest(name = "{0}, {1} stage(s), unpinned")
  @MethodSource("strategies")
  void shouldDeliverEveryEventOnceInOrderUnderEveryStrategy(WaitKind kind, int stages)
      throws Exception {
    PinnedDisruptor<TestEvent> pd =
        PinnedDisruptor.builder(kit(), TestEvent::new)
            .consumers(stages)
            .pinning(Pinning.UNPINNED)
            .waitStrategy(kind)
            .build();

    run(pd, stages, EVENTS);

    assertThat(pd.choice().strategy()).isEqualTo(kind);
  }

  @Test
  void shouldDeliverEveryEventInOrderToAPipelinePinnedOnSharedCpusWithTheChosenStrategy()
      throws Exception {
    PinnedDisruptor<TestEvent> pd =
        PinnedDisruptor.builder(kit(), TestEvent::new).consumers(3).ringSize(256).build();

    run(pd, 3, EVENTS);

    assertThat(pd.choice().overridden()).isFalse();
  }

  @Test
  void shouldDeliverEveryEventEvenWhenABusySpinConsumerSharesTheProducersCpu() throws Exception {
    AffinityKit kit = kit();
    PinnedDisruptor<TestEvent> pd =
        PinnedDisruptor.builder(kit, TestEvent::new)
            .pinning(Pinning.ALL)
            .waitStrategy(WaitKind.BUSY_SPIN) // the starvation case: tiny and bounded
            .build();
    pd.pinProducer();
    run(pd, 1, 500); // fewer than the ring holds: the producer never waits for the spinner

    assertThat(pd.choice().placementChoice()).isEqualTo(WaitKind.SLEEPING);
    assertThat(kit.pinnedThreadIds()).isEmpty(); // close() released the producer too
  }
}
