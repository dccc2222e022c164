package io.github.affinitykit.disruptor;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.Assignment;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole factory on the seed machine's model (24 CPUs, isolcpus=19-23) with the recording
 * backend: simulated masks, real threads, a private lock directory.
 */
@Timeout(30)
class PinnedDisruptorFixtureTest {
  @TempDir Path locks;
  private final RecordingAffinityBackend backend =
      new RecordingAffinityBackend(CpuSet.range(0, 23));

  private AffinityKit kit() {
    return AffinityKit.create(TestHosts.e5(), backend, CpuReservations.inDirectory(locks));
  }

  private String simulatedMask() {
    return backend.getAffinity(0).toString();
  }

  @Test
  void shouldPinThreeConsumersOnDistinctIsolatedThreadsAndYield() throws Exception {
    AffinityKit kit = kit();
    PinnedDisruptor<TestEvent> pd =
        PinnedDisruptor.builder(kit, TestEvent::new).consumers(3).build();
    try {
      List<CheckingHandler> hs = Pipelines.wire(pd, 3, 10, this::simulatedMask);
      Pipelines.publish(pd.start(), 10);
      for (CheckingHandler h : hs) {
        assertThat(h.done().await(10, TimeUnit.SECONDS)).isTrue();
      }
      assertThat(hs).extracting(CheckingHandler::startMask).containsExactly("19", "20", "21");
      assertThat(pd.consumerAssignments())
          .extracting(Assignment::status)
          .containsOnly(LeaseStatus.PINNED);
      assertThat(pd.choice().strategy()).isEqualTo(WaitKind.YIELDING);
      assertThat(pd.choice().describe()).contains("core-mate 7 is not");
    } finally {
      pd.close();
    }
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
    assertThat(kit.pinnedThreadIds()).isEmpty();
  }

  @Test
  void shouldShareTheProducersCpuWhenThePoolHasOneAndBackOff() throws Exception {
    AffinityKit kit = kit();
    PinnedDisruptor<TestEvent> pd =
        PinnedDisruptor.builder(kit, TestEvent::new)
            .group(PinnedDisruptorBuilder.defaultGroup(kit, "disruptor").pool(CpuSet.of(20)))
            .pinning(Pinning.ALL)
            .build();
    try {
      List<CheckingHandler> hs = Pipelines.wire(pd, 1, 10, this::simulatedMask);
      var ring = pd.start();
      CpuLease lease = pd.pinProducer();
      Pipelines.publish(ring, 10);
      assertThat(hs.get(0).done().await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(lease.cpu()).isEqualTo(20);
      assertThat(lease.status()).isEqualTo(LeaseStatus.PINNED); // planned first: it owns cpu 20
      assertThat(pd.consumerAssignments().get(0).status()).isEqualTo(LeaseStatus.SHARED);
      assertThat(simulatedMask()).isEqualTo("20");
      assertThat(pd.choice().strategy()).isEqualTo(WaitKind.SLEEPING);
    } finally {
      pd.close();
    }
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
    assertThat(kit.pinnedThreadIds()).isEmpty();
  }

  @Test
  void shouldPlanAroundACpuAnotherProcessHolds() throws Exception {
    AffinityKit kit = kit();
    var held = kit.reservations().tryReserve(19).orElseThrow(); // as if another process held it
    PinnedDisruptor<TestEvent> pd =
        PinnedDisruptor.builder(kit, TestEvent::new).consumers(1).build();
    try {
      Pipelines.wire(pd, 1, 1, this::simulatedMask);
      pd.start();
      assertThat(pd.assignments().consumerCpu(0)).isEqualTo(20);
      assertThat(pd.consumerAssignments().get(0).cpu()).isEqualTo(20);
    } finally {
      pd.close();
      held.close();
    }
  }

  @Test
  void shouldIsolateTheConsumersCpusOnlyWhenAskedAndGiveThemBackOnClose(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path root) throws Exception {
    io.github.affinitykit.core.AffinityKit kit =
        io.github.affinitykit.core.testkit.FixtureKits.isolating(root, 4);
    try (PinnedDisruptor<TestEvent> plain =
        PinnedDisruptor.builder(kit, TestEvent::new).consumers(1).build()) {
      assertThat(plain.isolation()).as("off by default").isEmpty();
    }
    PinnedDisruptor<TestEvent> d =
        PinnedDisruptor.builder(kit, TestEvent::new)
            .consumers(2)
            .group(PinnedDisruptorBuilder.defaultGroup(kit, "iso").isolate(true))
            .build();
    io.github.affinitykit.core.CpuIsolation iso = d.isolation().orElseThrow();
    assertThat(iso.isActive()).as(iso.reason()).isTrue();
    assertThat(iso.cpus()).isEqualTo(io.github.affinitykit.core.cpu.CpuSet.of(1, 2));
    d.close();
    assertThat(iso.isActive()).isFalse();
  }
}
