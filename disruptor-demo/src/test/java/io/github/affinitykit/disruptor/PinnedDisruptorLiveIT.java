package io.github.affinitykit.disruptor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.Assignment;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.WaitAdvice;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.ThreadMasks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real pinning on this machine (assumes only 2 CPUs: the pool is the last, the first is
 * housekeeping). Masks are read from {@code /proc/thread-self/status} inside the handlers.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(30)
class PinnedDisruptorLiveIT {
  @TempDir Path locks;
  private AffinityKit kit;
  private int cpu;

  @BeforeEach
  void setUp() {
    HostCpus host = HostCpus.probe();
    assumeTrue(host.reachable().size() >= 2, "needs 2 CPUs");
    AffinityBackend backend = AffinityBackend.detect();
    assumeTrue(backend.isSupported(), backend.reason());
    kit = AffinityKit.create(host, backend, CpuReservations.inDirectory(locks));
    cpu = kit.pool().cpus().first();
  }

  /**
   * Whether the kernel task still exists 10 s after its Java thread ended: the JVM reports a thread
   * dead a moment before its native thread leaves {@code /proc/self/task}.
   */
  private static boolean alive(int tid) {
    Path task = Path.of("/proc/self/task/" + tid);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (Files.exists(task) && System.nanoTime() < deadline) {
      Thread.yield();
    }
    return Files.exists(task);
  }

  @Test
  void shouldRunAPipelinesConsumersOnTheirPlannedCpuAndFreeItOnClose() throws Exception {
    PinnedDisruptor<TestEvent> pd =
        PinnedDisruptor.builder(kit, TestEvent::new)
            .consumers(3)
            .group(PinnedDisruptorBuilder.defaultGroup(kit, "live"))
            .build();
    List<CheckingHandler> hs;
    List<Integer> tids;
    try {
      hs = Pipelines.wire(pd, 3, 1_000, Pipelines::allowedList);
      Pipelines.publish(pd.start(), 1_000);
      for (CheckingHandler h : hs) {
        assertThat(h.done().await(20, TimeUnit.SECONDS)).isTrue();
        assertThat(h.startMask()).isEqualTo(String.valueOf(cpu));
        assertThat(h.firstError()).isEmpty();
      }
      assertThat(pd.consumerAssignments())
          .extracting(Assignment::cpu, Assignment::status)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(cpu, LeaseStatus.PINNED),
              org.assertj.core.groups.Tuple.tuple(cpu, LeaseStatus.SHARED),
              org.assertj.core.groups.Tuple.tuple(cpu, LeaseStatus.SHARED));
      assertThat(pd.consumerAssignments().get(1).threadName()).isEqualTo("live-consumer-1");
      assertThat(pd.placementDeviations()).isEmpty();
      assertThat(kit.reservations().reservedHere().contains(cpu)).isTrue();
      tids = pd.consumerThreadIds();
      assertThat(kit.pinnedThreadIds()).containsExactlyInAnyOrderElementsOf(tids);
    } finally {
      pd.close();
    }

    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
    assertThat(kit.pinnedThreadIds()).isEmpty();
    assertThat(tids).noneMatch(PinnedDisruptorLiveIT::alive);
    assertThat(pd.consumerAssignments())
        .extracting(Assignment::status)
        .containsOnly(LeaseStatus.RELEASED);
  }

  @Test
  void shouldPinTheProducerWithItsConsumerAndRestoreItsMaskOnClose() throws Exception {
    String before = Pipelines.allowedList();
    PinnedDisruptor<TestEvent> pd =
        PinnedDisruptor.builder(kit, TestEvent::new).pinning(Pinning.ALL).build();
    try {
      List<CheckingHandler> hs = Pipelines.wire(pd, 1, 100, Pipelines::allowedList);
      var ring = pd.start();
      CpuLease producer = pd.pinProducer();
      assertThat(producer.isBound()).isTrue();
      assertThat(Pipelines.allowedList()).isEqualTo(String.valueOf(cpu));
      assertThatThrownBy(pd::pinProducer).hasMessageContaining("already pinned");
      Pipelines.publish(ring, 100);
      assertThat(hs.get(0).done().await(20, TimeUnit.SECONDS)).isTrue();
      assertThat(hs.get(0).startMask()).isEqualTo(String.valueOf(cpu));
      assertThat(pd.choice().strategy()).isNotEqualTo(WaitKind.BUSY_SPIN);
    } finally {
      pd.close();
    }

    assertThat(Pipelines.allowedList()).isEqualTo(before);
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
    assertThat(kit.pinnedThreadIds()).isEmpty();
  }

  @Test
  void shouldRefuseToStartWhenTheDisruptorRunsADifferentNumberOfConsumers() {
    PinnedDisruptor<TestEvent> pd =
        PinnedDisruptor.builder(kit, TestEvent::new).consumers(2).build();
    try {
      Pipelines.wire(pd, 1, 1, () -> "");

      assertThatThrownBy(pd::start)
          .isInstanceOf(IllegalStateException.class)
          .hasMessage(
              "consumers: the Disruptor started 1 event processors (expected: 2, as planned by"
                  + " consumers(2))");
    } finally {
      pd.close();
    }
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
    assertThat(kit.pinnedThreadIds()).isEmpty();
    assertThatThrownBy(() -> pd.pinProducer()).hasMessageContaining("expected: pinning ALL");
  }

  @Test
  void shouldNeverChooseBusySpinAfterARealAuditWhenTheProducerSharesTheConsumersCpu()
      throws Exception {
    String before = Pipelines.allowedList();
    PinnedDisruptor<TestEvent> pd =
        PinnedDisruptor.builder(kit, TestEvent::new)
            .pinning(Pinning.ALL)
            .auditExclusivity(Duration.ofMillis(100))
            .build();
    try {
      assertThat(pd.audit()).isPresent();
      assertThat(pd.audit().orElseThrow().verdicts()).hasSize(1);
      assertThat(Pipelines.allowedList()).isNotEqualTo(before); // confined while it runs
      assertThat(pd.choice().strategy()).isEqualTo(WaitKind.SLEEPING);
    } finally {
      pd.close();
    }
    assertThat(Pipelines.allowedList()).isEqualTo(before);
  }

  @Test
  void shouldSayWhatTheAuditFoundWhenAConsumerHasItsOwnCpu() {
    PinnedDisruptor<TestEvent> pd =
        PinnedDisruptor.builder(kit, TestEvent::new)
            .auditExclusivity(Duration.ofMillis(100))
            .build();
    try {
      boolean exclusive = pd.audit().orElseThrow().verdict(cpu).exclusive();
      WaitAdvice consumer = pd.choice().consumers().get(0);

      assertThat(consumer.reason())
          .isEqualTo(
              exclusive
                  ? WaitAdvice.Reason.AUDITED_EXCLUSIVE
                  : WaitAdvice.Reason.AUDITED_NOT_EXCLUSIVE);
      assertThat(pd.choice().strategy())
          .isEqualTo(exclusive ? WaitKind.BUSY_SPIN : WaitKind.YIELDING);
      if (!exclusive) {
        assertThat(consumer.text()).contains("the audit found it INTRUDED");
      }
    } finally {
      pd.close();
    }
  }

  @Test
  void shouldGiveTheJvmItsCpusBackWhenTheAuditThrows() {
    ConsumerThreads threads = ConsumerThreads.seat(kit.group("t").build(), Pinning.CONSUMERS, 1);
    Map<Integer, CpuSet> before = ThreadMasks.now();
    try {
      PipelineAssignments layout = threads.layout(Pinning.CONSUMERS);
      CpuSet cores = CpuSet.empty();
      for (int c : layout.consumerCpus().toArray()) {
        cores = cores.union(kit.host().topology().cpu(c).core());
      }
      CpuSet housekeeping = kit.host().reachable().minus(cores);
      assertThatThrownBy(
              () ->
                  ExclusivityCheck.run(
                      kit,
                      layout,
                      Duration.ofMillis(100),
                      (cpus, window) -> {
                        assertThat(ThreadMasks.now()).containsValue(housekeeping); // confined now
                        throw new IllegalStateException("audit failed (test)");
                      }))
          .hasMessage("audit failed (test)");
    } finally {
      threads.close();
    }
    ThreadMasks.assertUnchangedSince(before);
  }
}
