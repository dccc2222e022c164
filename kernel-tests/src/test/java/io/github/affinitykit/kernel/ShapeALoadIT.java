package io.github.affinitykit.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.affinitykit.core.cpu.CpuSet;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The load test live in shape A's guest (isolcpus=3-7, two NUMA nodes): the scenarios an isolcpus
 * host changes, loops pinned on isolated CPUs ({@code pinned}) and the rest of the gateway confined
 * to the housekeeping CPUs ({@code exclusive}), with the server and client on disjoint isolated
 * CPUs. The other scenarios' mechanics run on the host ({@code LoadTestIT}, {@code BundleIT}).
 */
@Timeout(value = 11, unit = TimeUnit.MINUTES)
class ShapeALoadIT extends BootedShape {
  @Override
  Shape shape() {
    return Shapes.A_LOAD;
  }

  @Test
  void shouldLoseNothingPinnedOrExclusiveOnIsolatedCpusWithDisjointSets() {
    JsonNode l = guest.section("a", "loadtest");
    assertThat(
            CpuSet.parse(l.path("server").asText())
                .intersects(CpuSet.parse(l.path("client").asText())))
        .isFalse();
    assertThat(l.path("exit").asInt()).as(l.path("output").asText()).isZero();
    JsonNode trials = l.path("results").path("trials");
    List<String> scenarios = new ArrayList<>();
    for (JsonNode t : trials) {
      scenarios.add(t.path("scenario").asText());
      assertThat(t.path("lost").asLong()).as("lost in %s", t.path("scenario")).isZero();
    }
    assertThat(scenarios).containsExactlyInAnyOrder("pinned", "exclusive");
  }
}
