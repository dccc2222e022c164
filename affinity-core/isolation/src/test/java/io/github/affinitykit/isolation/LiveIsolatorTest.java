package io.github.affinitykit.isolation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuIsolation;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Core finds this artifact by itself: a kit made without an isolator isolates through this
 * artifact's live isolator, with the kit's own backend. The backend here cannot pin, so the
 * isolation is refused before anything of this host is touched (nothing written, no journal).
 */
class LiveIsolatorTest {
  @TempDir Path locks;

  @Test
  void shouldIsolateThroughTheArtifactFoundOnTheClassPathWithTheKitsBackend() {
    HostCpus host = HostCpus.probe();
    assumeThat(host.topology().online().size()).as("one CPU left to the rest").isGreaterThan(1);
    AffinityKit kit =
        AffinityKit.create(
            host,
            AffinityBackend.unsupported("test: pinning off"),
            CpuReservations.inDirectory(locks));
    CpuIsolation handle = kit.isolate(CpuSet.of(host.topology().online().last()));

    Isolation iso = Isolation.of(handle);
    assertThat(iso.isActive()).isFalse();
    assertThat(iso.report().status()).isEqualTo(IsolationStatus.REFUSED);
    assertThat(iso.reason())
        .isEqualTo("refused: " + iso.report().refusal())
        .isNotEqualTo("refused: ");
    assertThat(iso.report().journal()).isEmpty();
    handle.close();
  }

  @Test
  void shouldRefuseToReadAReportFromAHandleAnotherIsolatorMade() {
    CpuIsolation fake =
        new io.github.affinitykit.core.testkit.FakeIsolator().isolate(CpuSet.of(1), Set.of());
    assertThatThrownBy(() -> Isolation.of(fake))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageEndingWith(
            "(isolated by FakeIsolator) (expected: an isolation made by affinity-isolation's"
                + " Isolator)");
  }
}
