package io.github.affinitykit.kernel;

import static io.github.affinitykit.kernel.GuestAsserts.cpus;
import static io.github.affinitykit.kernel.GuestAsserts.readBackMatches;
import static io.github.affinitykit.kernel.GuestAsserts.statuses;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.affinitykit.core.cpu.CpuSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The shapes QEMU runs on single-threaded TCG, one host CPU each, booted in two lanes side by side:
 * runtime isolation on Debian 12's 6.1 (shape I) in one; isolation on 6.12 (J), then the 64-CPU
 * machine (D), then the runc scene on 6.12 (R_612) in the other. Side by side in CI, I took about
 * 12 minutes, J about 8 and D 2.5 when both kernels ran every isolation section; recovery after
 * SIGKILL and the pid namespace's isolation make the same root partition on either kernel, so each
 * now runs on one (J recovers, I keeps the namespaces and the gateway): about 10 minutes for I; 6
 * for J, 2.5 for D and 1 for R_612 in the other lane.
 *
 * <p>Thread safety: JUnit runs the nested classes one after another on one thread; the boots run on
 * threads of their own and are only read through their futures.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 32, unit = TimeUnit.MINUTES)
class SingleThreadedShapesIT {
  static final Shape I = Shapes.isolation("i-isolation-6.1", "6.1", false);
  static final Shape J = Shapes.isolation("j-isolation-6.12", "6.12", true);

  private Map<String, Future<GuestResult>> boots = Map.of();

  @BeforeAll
  void bootBoth() throws Exception {
    boots = KernelSuite.bootSideBySide(List.of(List.of(I), List.of(J, Shapes.D, Shapes.R_612)));
  }

  /** No guest outlives the class: each boot ends by its shape's limit, guest killed. */
  @AfterAll
  void awaitBoth() {
    for (Future<GuestResult> f : boots.values()) {
      try {
        KernelSuite.await(f);
      } catch (Exception ignored) { // reported by the nested class that read it
      }
    }
  }

  /**
   * Debian 12's 6.1: no remote partitions, so deep is a shield; it also leaves another pid
   * namespace's isolation alone and runs the gateway's fatal exit under {@code --pin isolated}.
   */
  @Nested
  class Debian61 extends IsolationShapeIT {
    @Override
    Shape shape() {
      return I;
    }

    @Override
    GuestResult bootGuest() throws Exception {
      return KernelSuite.await(boots.get(I.name()));
    }

    @Override
    boolean cpusetV1() {
      return true;
    }

    @Override
    String deepMechanism() {
      return "AFFINITY_SHIELD";
    }

    @Test
    void shouldLeaveALiveIsolationOfAnotherPidNamespaceAlone() {
      JsonNode d = guest.section("after", "isolate-namespaces");
      assertThat(d.path("holder").asText())
          .as("the holder, pid 1 of its namespace")
          .contains("status=ISOLATED")
          .contains("pid=1\n");
      JsonNode during = d.path("during");
      assertThat(during.path("journal").asBoolean()).isTrue();
      assertThat(during.path("cgroup").asBoolean()).isTrue();
      assertThat(during.path("defaultAffinity").asText())
          .as("isolated by the holder")
          .isEqualTo("7");
      assertThat(d.path("releaseExit").asInt())
          .as("release from another pid 1: %s", d.path("releaseOut"))
          .isEqualTo(1);
      assertThat(d.path("releaseOut").asText()).contains("which still runs: left to it");
      assertThat(d.path("afterRelease")).as("nothing of the live holder undone").isEqualTo(during);
      assertThat(d.path("finalExit").asInt()).as(d.path("finalOut").asText()).isZero();
      assertThat(d.path("finalOut").asText())
          .contains("which is dead: undone")
          .doesNotContain("\"FAILED\"", "\"LEFT\"");
    }

    /**
     * A gateway with {@code --pin isolated} driven out of heap puts its isolation back before it
     * halts with status 3: the machine is as before, no journal left.
     */
    @Test
    void shouldRestoreTheIsolationBeforeTheGatewayHaltsOnAnOutOfMemoryError() {
      JsonNode d = guest.section("after", "gateway-fatal");
      String output = d.path("output").asText();
      assertThat(d.path("healthy").asBoolean()).as(output).isTrue();
      assertThat(output).contains("isolation active: cpus ");
      assertThat(d.path("during").path("files").toString())
          .as("a partition while it ran")
          .contains("affinitykit-");
      assertThat(d.path("exit").asInt()).as(d.path("exhaust").asText()).isEqualTo(3);
      assertThat(output)
          .contains("gateway: fatal: java.lang.OutOfMemoryError: Java heap space")
          .contains("gateway: isolation restored before halting");
      JsonNode before = d.path("before");
      JsonNode after = d.path("after");
      assertAsBefore(before, after);
      assertThat(d.path("journalsLeft")).as("no journal left").isEmpty();
    }
  }

  /**
   * 6.12: deep in a hierarchy it is a remote partition; Debian builds it without cgroup v1 cpusets
   * ({@code # CONFIG_CPUSETS_V1 is not set}); it also recovers after a JVM killed under isolation.
   */
  @Nested
  class Debian612 extends IsolationShapeIT {
    @Override
    Shape shape() {
      return J;
    }

    @Override
    GuestResult bootGuest() throws Exception {
      return KernelSuite.await(boots.get(J.name()));
    }

    @Override
    boolean cpusetV1() {
      return false;
    }

    @Override
    String deepMechanism() {
      return "CGROUP_V2_REMOTE_PARTITION";
    }

    @Test
    void shouldRefuseASecondJvmTheSameCpuAndRecoverAfterSigkill() {
      JsonNode c = guest.section("crash", "crash");
      JsonNode r = c.path("report");
      assertThat(r.path("status").asText()).isEqualTo("ISOLATED");
      assertThat(r.path("mechanism").asText()).isEqualTo("CGROUP_V2_PARTITION");
      JsonNode rec = guest.section("recover", "isolate-recover");
      JsonNode second = rec.path("second");
      assertThat(second.path("status").asText()).as("a second JVM, same CPU").isEqualTo("REFUSED");
      assertThat(second.path("refusal").asText())
          .startsWith(
              "CPUs 3 isolated by pid "
                  + r.path("ownerPid").asLong()
                  + " (CGROUP_V2_PARTITION), which still runs");
      assertThat(rec.path("doctor").path("isolations"))
          .as("the doctor finds the dead owner")
          .singleElement()
          .satisfies(
              j -> {
                assertThat(j.path("owner").asText()).isEqualTo("DEAD");
                assertThat(j.path("ownerPid").asLong()).isEqualTo(r.path("ownerPid").asLong());
                assertThat(j.path("describe").asText()).contains("which is dead: run release");
              });
      JsonNode release = rec.path("release");
      assertThat(release.path("status").asInt()).as("release's exit status").isZero();
      assertThat(release.path("out").path(0))
          .singleElement()
          .satisfies(
              x -> {
                assertThat(x.path("status").asText()).isEqualTo("RELEASED");
                assertThat(texts(x.path("recovered")))
                    .singleElement()
                    .asString()
                    .contains("which is dead: undone");
                assertThat(x.path("changes"))
                    .noneMatch(ch -> ch.path("outcome").asText().matches("FAILED|LEFT"));
              });
      assertThat(rec.path("journalsLeft").asInt()).isZero();
      JsonNode before = c.path("before");
      JsonNode after = rec.path("after");
      assertAsBefore(before, after);
      String noise = c.path("noisePid").asText();
      assertThat(after.path("tasks").path(noise).asText()).isEqualTo("0-3");
    }
  }

  /**
   * Shape D: 4 packages × N cores × 2 threads (64 CPUs by default, {@link Shapes#D}), 4 NUMA nodes.
   */
  @Nested
  class BigMachine extends BootedShape {
    private static final int CPUS = Shapes.D.cpus();
    private static final int PER_NODE = CPUS / 4;

    @Override
    Shape shape() {
      return Shapes.D;
    }

    @Override
    GuestResult bootGuest() throws Exception {
      return KernelSuite.await(boots.get(Shapes.D.name()));
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
              "differentCore",
              "sameCore",
              "differentSocket",
              "sameNumaNode",
              "differentNumaNode")) {
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

  /**
   * Shape R on 6.12 ({@link Shapes#R_612}): the kernel keeps the thread on 3 there, and the one
   * whose CPU 4 is gone is re-planned onto 2. Its lane boots it after J and D.
   */
  @Nested
  @Timeout(value = 30, unit = TimeUnit.MINUTES)
  class Runc612 extends ShapeRIT {
    @Override
    Shape shape() {
      return Shapes.R_612;
    }

    @Override
    GuestResult bootGuest() throws Exception {
      return KernelSuite.await(boots.get(Shapes.R_612.name()));
    }

    @Override
    boolean resetsMasks() {
      return false;
    }
  }
}
