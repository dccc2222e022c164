package io.github.affinitykit.latency;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.ReadmeBlocks;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example of the latency guide ({@code docs/latency.md}), run on this host's pool with a
 * private lock and cache directory: measured the first time, read from the cache the second; and
 * checked to be the guide's text, line for line.
 */
@Timeout(120)
class LatencyGuideExampleTest {
  @TempDir Path locks;
  @TempDir Path cacheHome;

  @Test
  @EnabledOnOs(OS.LINUX)
  void shouldMeasureThenReadTheMatrixAndSeatTheGroupOnTheChoice() throws Exception {
    AffinityBackend backend = AffinityBackend.detect();
    Assumptions.assumeTrue(backend.isSupported(), "this host cannot pin: " + backend.reason());
    HostCpus host = HostCpus.probe();
    Assumptions.assumeFalse(host.pool().isEmpty(), "no pool: " + host.pool().reason());
    AffinityKit kit = AffinityKit.create(host, backend, CpuReservations.inDirectory(locks));
    String before = System.getProperty(LatencyCache.DIRECTORY_PROPERTY);
    System.setProperty(LatencyCache.DIRECTORY_PROPERTY, cacheHome.resolve("ak").toString());
    try {
      for (LatencyLookup.Origin expected :
          new LatencyLookup.Origin[] {LatencyLookup.Origin.MEASURED, LatencyLookup.Origin.CACHED}) {
        // README:begin
        CpuSet pool = kit.pool().cpus().minus(kit.reservations().reservedHere()); // free here
        // measured on first use on this host (two spinning threads a pair), then read back
        LatencyLookup lookup =
            LatencyCache.inDefaultDirectory()
                .matrix(HostKey.of(kit.host()), pool, LatencyMeter.on(kit.backend()));
        System.out.println(lookup.origin() + ": " + lookup.reason());
        int n = Math.min(3, pool.size()); // a producer and two consumers
        LatencyChoice choice = LatencyPlacement.choose(lookup.matrix(), pool, n);
        System.out.print(choice.report());
        try (CpuGroup pipeline = kit.group("pipeline").cpus(choice.cpus()).build()) {
          System.out.println(pipeline); // member 0, the producer, takes choice.cpus()[0]
        }
        // README:end
        assertThat(lookup.origin()).isEqualTo(expected);
        assertThat(lookup.matrix().cpus()).isEqualTo(pool);
        assertThat(pool.containsAll(CpuSet.of(choice.cpus()))).isTrue();
        assertThat(choice.report()).contains("*" + choice.cpus()[0]);
      }
    } finally {
      if (before == null) {
        System.clearProperty(LatencyCache.DIRECTORY_PROPERTY);
      } else {
        System.setProperty(LatencyCache.DIRECTORY_PROPERTY, before);
      }
    }
  }

  @Test
  void shouldBeTheCodeTheGuideShows() throws IOException {
    Path me = Path.of("src/test/java/io/github/affinitykit/latency/LatencyGuideExampleTest.java");
    assertThat(ReadmeBlocks.block(me)).hasSize(12);
    ReadmeBlocks.assertShown(me, Path.of("..", "..", "docs", "latency.md"));
  }
}
