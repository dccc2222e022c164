package io.github.affinitykit.kernel;

import static io.github.affinitykit.kernel.GuestAsserts.cpus;
import static io.github.affinitykit.kernel.GuestAsserts.readBackMatches;
import static io.github.affinitykit.kernel.GuestAsserts.statuses;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.affinitykit.core.cpu.CpuSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Shape B live: the JVM inside a cgroup v2 {@code isolated} partition (CPUs 8-11) and inside a
 * {@code root} partition (CPUs 4-7) of a 12-CPU guest. Guest cores are {2k, 2k+1}.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class ShapeBIT extends BootedShape {
  @Override
  Shape shape() {
    return Shapes.B;
  }

  @Test
  void shouldReportTheIsolatedPartitionAndPoolItsCpusKeepingOneCoreForTheJvm() {
    JsonNode j = guest.section("isolated", "doctor").path("json");
    JsonNode cg = j.path("cgroup");
    assertThat(cg.path("version").asInt()).isEqualTo(2);
    assertThat(cg.path("path").asText()).isEqualTo("/iso");
    assertThat(cg.path("effective").asText()).isEqualTo("8-11");
    assertThat(cg.path("partition").asText()).isEqualTo("isolated");
    assertThat(j.path("sets").path("reachable").asText()).isEqualTo("8-11");
    assertThat(j.path("sets").path("isolatedAll").asText()).isEqualTo("8-11");
    JsonNode pool = j.path("pool");
    assertThat(pool.path("source").asText()).isEqualTo("ISOLATED");
    assertThat(pool.path("cpus").asText()).isEqualTo("10-11");
    assertThat(pool.path("housekeeping").asText()).isEqualTo("8-9");
  }

  @Test
  void shouldReportTheRootPartitionAndPoolItsCpusButTheFirstCore() {
    JsonNode j = guest.section("root", "doctor").path("json");
    JsonNode cg = j.path("cgroup");
    assertThat(cg.path("path").asText()).isEqualTo("/rt");
    assertThat(cg.path("effective").asText()).isEqualTo("4-7");
    assertThat(cg.path("partition").asText()).isEqualTo("root");
    JsonNode pool = j.path("pool");
    assertThat(pool.path("source").asText()).isEqualTo("ALL_BUT_HOUSEKEEPING");
    assertThat(pool.path("cpus").asText()).isEqualTo("6-7");
    assertThat(pool.path("housekeeping").asText()).isEqualTo("4-5");
  }

  @Test
  void shouldNeverBindOutsideTheCgroupAndResolveStrategiesInsideIt() {
    for (String run : List.of("isolated", "root")) {
      CpuSet cgroup =
          CpuSet.parse(
              guest.section(run, "doctor").path("json").path("cgroup").path("effective").asText());
      JsonNode p = guest.section(run, "placements");
      for (String group :
          List.of(
              "differentCore",
              "sameCore",
              "differentSocket",
              "sameNumaNode",
              "differentNumaNode",
              "overflow")) {
        JsonNode g = p.path(group);
        assertThat(statuses(g)).as("%s %s", run, group).doesNotContain("FAILED");
        cpus(g).stream()
            .filter(c -> c >= 0)
            .forEach(
                c -> assertThat(cgroup.contains(c)).as("%s %s cpu %d", run, group, c).isTrue());
        readBackMatches(g, cgroup);
      }
      // the pool is one core: two threads on different cores would need a second one
      assertThat(cpus(p.path("sameCore"))).as(run).hasSize(2);
      assertThat(cpus(p.path("sameCore")).get(1))
          .as(run)
          .isEqualTo(cpus(p.path("sameCore")).get(0) ^ 1);
      assertThat(statuses(p.path("overflow")))
          .as(run)
          .containsExactly("PINNED", "PINNED", "UNPINNED");
      for (JsonNode t : p.path("jvmThreads")) {
        assertThat(cgroup.containsAll(CpuSet.parse(t.path("allowed").asText())))
            .as("%s thread %s", run, t)
            .isTrue();
      }
    }
  }
}
