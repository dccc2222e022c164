package io.github.affinitykit.netty.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.testkit.FixtureKits;
import io.github.affinitykit.isolation.Isolation;
import io.github.affinitykit.isolation.Isolator;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --pin isolated} on a fixture host whose isolator writes only into the fixture tree (the
 * host's own CPUs are never isolated by a test): the workers' CPUs are isolated while the gateway
 * serves, the line a load test reads says so, and stopping the gateway undoes it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GatewayIsolatedIT {
  private static AffinityKit kit(Path root) {
    return FixtureKits.isolating(root, 4, b -> Isolator.at(root, b, root.resolve("journal")));
  }

  @Test
  void shouldIsolateTheWorkersCpusWhileServingAndUndoItAtStop(@TempDir Path root) {
    AffinityKit kit = kit(root);
    GatewayConfig config =
        GatewayHarness.config(
            "--port", "0", "--drain-timeout", "1s", "--pin", "isolated", "--workers", "2");
    Isolation iso;
    try (GatewayServer server = GatewayServer.start(config, kit)) {
      iso = server.isolation().orElseThrow();
      assertThat(iso.isActive()).as(iso.report().text()).isTrue();
      assertThat(GatewayMain.isolationLine(iso)).startsWith("isolation active: cpus " + iso.cpus());
      assertThat(server.confined())
          .as("the rest of the JVM confined, as exclusive does")
          .isPresent();
    }
    assertThat(iso.isActive()).as("undone once the gateway stopped").isFalse();
  }

  @Test
  void shouldIsolateNothingInTheOtherModes(@TempDir Path root) {
    AffinityKit kit = kit(root);
    for (String mode : new String[] {"pinned", "exclusive"}) {
      GatewayConfig config =
          GatewayHarness.config("--port", "0", "--drain-timeout", "1s", "--pin", mode);
      try (GatewayServer server = GatewayServer.start(config, kit)) {
        assertThat(server.isolation()).as(mode).isEmpty();
      }
    }
  }
}
