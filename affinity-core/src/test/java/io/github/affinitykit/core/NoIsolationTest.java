package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.FakeHost;
import io.github.affinitykit.core.testkit.FakeIsolator;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Core without affinity-isolation (its test class path has none): an isolation asked of the kit or
 * of a group never throws, is inactive and says which artifact is missing; the group pins as usual.
 * With an isolator given, its isolations are the kit's.
 */
@Timeout(30)
class NoIsolationTest {
  private static final String MISSING =
      "runtime isolation needs io.github.affinitykit:affinity-isolation on the class path";

  @TempDir Path root;

  private AffinityKit kit() {
    FakeHost.create(root, 4, 1);
    HostCpus host = HostCpus.probe(root);
    return AffinityKit.create(
        host,
        new RecordingAffinityBackend(CpuSet.range(0, 3)),
        CpuReservations.inDirectory(root.resolve("locks")));
  }

  @Test
  void shouldSayTheArtifactIsMissingWhenAGroupAsksToIsolateAndPinAsUsual() {
    AffinityKit kit = kit();
    try (CpuGroup group = kit.group("iso").isolate(true).build()) {
      try (CpuLease lease = group.joinAll(1).get(0).bind()) {
        assertThat(lease.status()).isEqualTo(LeaseStatus.PINNED);
        CpuIsolation iso = group.isolation().orElseThrow();
        assertThat(iso.isActive()).isFalse();
        assertThat(iso.reason()).isEqualTo(MISSING);
        assertThat(iso.cpus()).isEqualTo(CpuSet.of(lease.cpu()));
        assertThat(kit.isolation()).isEmpty();
      }
    }
  }

  @Test
  void shouldReturnAnInactiveHandleSayingWhyWhenTheKitIsolates() {
    CpuIsolation iso = kit().isolate(CpuSet.of(2));
    assertThat(iso.isActive()).isFalse();
    assertThat(iso.reason()).isEqualTo(MISSING);
    assertThat(iso.letIn(7)).isEmpty();
    iso.letOut(7);
    iso.close();
    assertThat(iso.isActive()).isFalse();
  }

  @Test
  void shouldLetAThreadPinnedOnTheIsolatedCpuInAndOutThroughTheGivenIsolator() {
    AffinityKit kit = kit();
    FakeIsolator isolator = new FakeIsolator();
    try (CpuIsolation iso = kit.isolate(CpuSet.of(3), isolator)) {
      assertThat(kit.isolation()).containsSame(iso);
      int tid;
      try (CpuLease lease = kit.pinCurrentThread(3)) {
        tid = lease.tid();
        assertThat(isolator.made().get(0).letIn()).containsExactly(tid);
      }
      assertThat(isolator.made().get(0).letOut()).containsExactly(tid);
    }
    assertThat(kit.isolation()).isEmpty();
  }

  @Test
  void shouldNameTheIsolationsRefusalWhenTheKernelRefusesTheBind() {
    FakeHost.create(root, 4, 1);
    RecordingAffinityBackend backend = new RecordingAffinityBackend(CpuSet.range(0, 3));
    AffinityKit kit =
        AffinityKit.create(
            HostCpus.probe(root), backend, CpuReservations.inDirectory(root.resolve("locks")));
    try (CpuIsolation iso = kit.isolate(CpuSet.of(3), FakeIsolator.refusing("no room on cpu 3"))) {
      backend.failNextSetAffinity(22);
      assertThat(kit.isolation()).containsSame(iso);
      try (CpuLease lease = kit.pinCurrentThread(3)) {
        assertThat(lease.status()).isEqualTo(LeaseStatus.FAILED);
        assertThat(lease.reason()).endsWith("(isolation refused the thread: no room on cpu 3)");
      }
    }
  }
}
