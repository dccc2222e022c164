package io.github.affinitykit.kernel;

import static io.github.affinitykit.kernel.GuestAsserts.cpus;
import static io.github.affinitykit.kernel.GuestAsserts.readBackMatches;
import static io.github.affinitykit.kernel.GuestAsserts.statuses;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.affinitykit.core.CpuSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Shape D live: 4 packages × N cores × 2 threads (64 CPUs by default, {@link Shapes#D}), 4 NUMA
 * nodes.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class ShapeDIT extends BootedShape {
  private static final int CPUS = Shapes.D.cpus();
  private static final int PER_NODE = CPUS / 4;

  @Override
  Shape shape() {
    return Shapes.D;
  }

  @Test
  void shouldSeeEveryPackageNodeAndSiblingAndPoolAllButTheFirstCore() {
    JsonNode t = guest.section("d", "doctor").path("json").path("topology");
    assertThat(t.path("cpus").asInt()).isEqualTo(CPUS);
    assertThat(t.path("packages")).hasSize(4);
    assertThat(t.path("cores")).hasSize(CPUS / 2);
    assertThat(t.path("smt").asBoolean()).isTrue();
    for (int n = 0; n < 4; n++) {
      assertThat(t.path("numaNodes").path(String.valueOf(n)).asText())
          .isEqualTo(n * PER_NODE + "-" + ((n + 1) * PER_NODE - 1));
    }
    JsonNode pool = guest.section("d", "doctor").path("json").path("pool");
    assertThat(pool.path("cpus").asText()).isEqualTo("2-" + (CPUS - 1));
    assertThat(pool.path("housekeeping").asText()).isEqualTo("0-1");
  }

  @Test
  void shouldAlternateNumaNodesAndReadBackEveryPlacement() {
    JsonNode p = guest.section("d", "placements");
    List<Integer> nodes =
        cpus(p.path("differentNumaNode")).stream().map(c -> c / PER_NODE).toList();
    assertThat(statuses(p.path("differentNumaNode"))).containsOnly("PINNED");
    for (int i = 1; i < nodes.size(); i++) {
      assertThat(nodes.get(i)).isNotEqualTo(nodes.get(i - 1));
    }
    assertThat(cpus(p.path("differentCore")).stream().map(c -> c / 2).distinct()).hasSize(3);
    for (String g :
        List.of(
            "differentCore", "sameCore", "differentSocket", "sameNumaNode", "differentNumaNode")) {
      readBackMatches(p.path(g), CpuSet.range(0, CPUS - 1));
    }
  }

  @Test
  void shouldPinAThreadOnTheHighestCpuId() {
    JsonNode h = guest.section("d", "highest");
    assertThat(h.path("highest").asInt()).isEqualTo(CPUS - 1);
    JsonNode t = h.path("thread");
    assertThat(t.path("status").asText()).isEqualTo("PINNED");
    assertThat(t.path("allowed").asText()).isEqualTo(String.valueOf(CPUS - 1));
    assertThat(t.path("schedCpu").asInt()).isEqualTo(CPUS - 1);
  }
}
