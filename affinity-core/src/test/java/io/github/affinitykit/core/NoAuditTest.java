package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.FakeHost;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Core without affinity-audit (its test class path has none): an audit asked of the kit (or of a
 * watchdog: affinity-watchdog's {@code NoAuditWatchdogTest}) never throws, returns at once, finds
 * every CPU UNKNOWN and says which artifact is missing; the wait rule fed that answer does not spin
 * (nothing is proven exclusive).
 */
@Timeout(30)
class NoAuditTest {
  private static final String MISSING =
      "the audit needs io.github.affinitykit:affinity-audit on the class path";

  @TempDir Path root;

  private AffinityKit kit() {
    FakeHost.create(root, 4, 1);
    return AffinityKit.create(
        HostCpus.probe(root),
        new RecordingAffinityBackend(CpuSet.range(0, 3)),
        CpuReservations.inDirectory(root.resolve("locks")));
  }

  @Test
  void shouldFindEveryCpuUnknownAndNameTheMissingArtifactWhenTheKitAudits() {
    AffinityKit kit = kit();
    ExclusivityAudit audit = kit.audit(CpuSet.of(1, 3), Duration.ofHours(1)); // returns at once
    assertThat(audit.window()).isEqualTo(Duration.ofHours(1));
    assertThat(audit.audited()).isEqualTo(CpuSet.of(1, 3));
    assertThat(audit.exclusive()).isEqualTo(CpuSet.empty());
    assertThat(audit.intruded()).isEqualTo(CpuSet.empty());
    assertThat(audit.detail(3)).isEqualTo(MISSING);
    assertThat(audit.summary())
        .isEqualTo("cpu 1: UNKNOWN; " + MISSING + "\ncpu 3: UNKNOWN; " + MISSING + "\n");
    assertThatThrownBy(() -> audit.detail(2)).hasMessage("cpu: 2 (expected: one of 1,3)");
    assertThatThrownBy(() -> kit.audit(CpuSet.of(1), Duration.ZERO))
        .hasMessage("window: PT0S (expected: > 0)");
  }

  @Test
  void shouldNotSpinOnTheAnswerOfAMissingAudit() {
    AffinityKit kit = kit();
    try (CpuLease lease = kit.pinCurrentThread(2)) {
      ExclusivityAudit audit = kit.audit(CpuSet.of(2), Duration.ofMillis(10));
      assertThat(audit.detail(2)).isEqualTo(MISSING);
      CpuSet proven = audit.exclusive().union(audit.intruded()); // UNKNOWN proves nothing
      WaitAdvice advice =
          WaitAdvice.decide(
              kit.host(), lease.view("main"), java.util.List.of(), audit.exclusive(), proven);
      assertThat(advice.reason()).isEqualTo(WaitAdvice.Reason.NOT_AUDITED);
      assertThat(advice.spin()).isFalse();
    }
  }
}
