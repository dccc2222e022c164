package io.github.affinitykit.core.internal.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.FakeHost;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lease's steps as affinity-watchdog reaches them: set by {@code CpuLease} once, a move
 * numbered and undone, a loss told by the one call that found it.
 */
@Timeout(30)
class LeaseStepsTest {
  @TempDir Path root;

  @Test
  void shouldNumberAMoveRepinItAndTellALossOnce() throws Exception {
    RecordingAffinityBackend backend = new RecordingAffinityBackend(CpuSet.range(0, 3));
    AffinityKit kit =
        AffinityKit.create(
            FakeHost.create(root, 4, 1).probe(),
            backend,
            CpuReservations.inDirectory(root.resolve("locks")));
    try (CpuLease lease = kit.pinCurrentThread(2)) {
      LeaseSteps<CpuLease> steps = LeaseSteps.of();
      assertThat(steps.move(lease)).isZero();
      assertThat(steps.repin(lease)).isEqualTo("not moved");
      backend.setAffinity(lease.tid(), CpuSet.range(1, 2));
      assertThat(lease.check()).isEqualTo(LeaseStatus.MOVED);

      assertThat(steps.move(lease)).isOne();
      assertThat(steps.movedTo(lease)).isEqualTo(CpuSet.range(1, 2));
      assertThat(steps.repin(lease)).isEmpty();
      assertThat(lease.status()).isEqualTo(LeaseStatus.PINNED);
      assertThat(backend.getAffinity(lease.tid())).isEqualTo(CpuSet.of(2));
      assertThat(steps.move(lease)).isZero();

      Files.delete(kit.reservations().lockFile(2));
      assertThat(steps.verifyLoss(lease)).isTrue();
      assertThat(steps.verifyLoss(lease)).as("told once").isFalse();
      assertThat(kit.lostTotal()).isOne();
    }
    assertThatThrownBy(() -> LeaseSteps.set(LeaseSteps.of()))
        .hasMessage("lease steps: already set (expected: set once)");
  }
}
