package io.github.affinitykit.watchdog;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.ExclusivityAudit;
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
 * A watchdog that audits, without affinity-audit (its test class path has none): the check never
 * throws, a first UNKNOWN is no change, the report's audit names the missing artifact and proves
 * nothing exclusive.
 */
@Timeout(30)
class NoAuditWatchdogTest {
  @TempDir Path root;

  @Test
  void shouldReportTheMissingArtifactInTheWatchdogsAuditAndProveNothingExclusive() {
    FakeHost.create(root, 4, 1);
    AffinityKit kit =
        AffinityKit.create(
            HostCpus.probe(root),
            new RecordingAffinityBackend(CpuSet.range(0, 3)),
            CpuReservations.inDirectory(root.resolve("locks")));
    Watchdog dog = Watchdog.builder(kit).audit(Duration.ofMillis(10)).build();
    try (CpuLease lease = kit.pinCurrentThread(2)) {
      WatchReport report = dog.checkNow();
      assertThat(report.events()).isEmpty(); // a first UNKNOWN is not a change
      ExclusivityAudit audit = report.audit().orElseThrow();
      assertThat(audit.detail(2))
          .isEqualTo("the audit needs io.github.affinitykit:affinity-audit on the class path");
      assertThat(dog.lastAudit()).containsSame(audit);
      assertThat(audit.exclusive().union(audit.intruded()).isEmpty()).isTrue();
      assertThat(lease.isBound()).isTrue();
    }
  }
}
