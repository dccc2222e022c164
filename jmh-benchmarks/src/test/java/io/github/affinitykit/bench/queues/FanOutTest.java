package io.github.affinitykit.bench.queues;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.disruptor.Pinning;
import io.github.affinitykit.disruptor.WaitKind;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** QueueVsDisruptorBenchmark's hand-offs deliver every event to every consumer, then stop. */
class FanOutTest {
  private static final List<String> IMPLS =
      List.of(
          "abq",
          "lbq",
          "agrona-spin",
          "agrona-park",
          "disruptor-busy-spin",
          "disruptor-yielding",
          "disruptor-sleeping",
          "disruptor-blocking");

  @TempDir Path locks;

  @Test
  @EnabledOnOs(OS.LINUX)
  @Timeout(120)
  void shouldDeliverEveryEventToEveryConsumerAndFreeTheCpus() throws Exception {
    AffinityKit kit =
        AffinityKit.create(
            HostCpus.probe(), AffinityBackend.detect(), CpuReservations.inDirectory(locks));
    for (String impl : IMPLS) {
      for (int consumers : new int[] {1, 3}) {
        for (Pinning pinning : Pinning.values()) {
          try (FanOut f = fanOut(kit, impl, consumers, pinning)) {
            for (long i = 0; i < 2_000; i++) {
              f.publish(i);
            }
            while (f.slowest() < 2_000) {
              Thread.yield();
            }
            assertThat(f.slowest()).as(impl + " " + consumers + " " + pinning).isEqualTo(2_000);
          }
        }
      }
    }
    assertThat(kit.pinnedThreadIds()).isEmpty();
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
    assertThat(Thread.getAllStackTraces().keySet())
        .noneMatch(t -> t.getName().startsWith("bench-") && t.isAlive());
  }

  private static FanOut fanOut(AffinityKit kit, String impl, int consumers, Pinning pinning)
      throws InterruptedException {
    return impl.startsWith("disruptor-")
        ? new DisruptorFanOut(
            kit, WaitKind.parse(impl.substring("disruptor-".length())), consumers, pinning)
        : new QueueFanOut(kit, impl, consumers, pinning);
  }
}
