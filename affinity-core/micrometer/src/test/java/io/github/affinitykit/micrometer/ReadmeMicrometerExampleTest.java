package io.github.affinitykit.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.testkit.ReadmeBlocks;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The production guide's "Metrics" ({@code docs/production.md}), compiled and run on this host;
 * checked line for line.
 */
@Timeout(60)
class ReadmeMicrometerExampleTest {
  @Test
  void shouldRunTheReadmeExample() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    // README:begin
    AffinityKit kit = AffinityKit.shared();
    MeterRegistry registry = new SimpleMeterRegistry(); // yours: Prometheus, OTLP, ...
    AffinityMeterBinder meters = AffinityMeterBinder.of(kit); // or builder(kit).watchdog(dog)
    meters.bindTo(registry);
    try (CpuLease lease = kit.pinCurrentThread()) {
      meters.refresh(); // before each scrape: meters of new leases in, of closed ones out
      out.println(lease.status() + ": " + registry.find("affinity.thread.cpu.time").meters());
    }
    // README:end

    assertThat(bytes.toString(StandardCharsets.UTF_8)).matches("(?s)[A-Z]+: \\[.*\\]\\R");
    meters.refresh();
    assertThat(registry.find("affinity.thread.cpu.time").meters()).isEmpty();
    assertThat(registry.find("affinity.threads").gauges()).hasSize(4);
  }

  @Test
  void shouldBeTheCodeTheReadmeShows() throws IOException {
    ReadmeBlocks.assertShown(
        Path.of("src/test/java/io/github/affinitykit/micrometer/ReadmeMicrometerExampleTest.java"),
        Path.of("..", "..", "docs", "production.md"));
  }
}
