package io.github.affinitykit.kernel;

import static io.github.affinitykit.kernel.GuestAsserts.cpus;
import static io.github.affinitykit.kernel.GuestAsserts.readBackMatches;
import static io.github.affinitykit.kernel.GuestAsserts.statuses;
import static io.github.affinitykit.kernel.GuestAsserts.texts;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.affinitykit.core.cpu.CpuSet;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Shape A live: 2 sockets × 2 cores × 2 threads, 2 NUMA nodes, {@code isolcpus=3-7} with CPU 3's
 * sibling 2 left to housekeeping. Guest cores are {0,1} {2,3} | {4,5} {6,7}; node = socket.
 */
@Timeout(value = 9, unit = TimeUnit.MINUTES)
class ShapeAIT extends BootedShape {
  /** Where a thread that gets no CPU runs: the reachable CPUs less the isolated 3-7. */
  private static final CpuSet HOUSEKEEPING = CpuSet.range(0, 2);

  @Override
  Shape shape() {
    return Shapes.A;
  }

  private JsonNode data(String section) {
    return guest.section("a", section);
  }

  private static int core(int cpu) {
    return cpu / 2;
  }

  private static int node(int cpu) {
    return cpu / 4;
  }

  @Test
  void shouldReportTopologyIsolationAndThePoolFieldByField() {
    JsonNode d = data("doctor");
    assertThat(d.path("exit").asInt()).isZero();
    JsonNode j = d.path("json");
    JsonNode t = j.path("topology");
    assertThat(t.path("cpus").asInt()).isEqualTo(8);
    assertThat(texts(t.path("packages"))).containsExactly("0-3", "4-7");
    assertThat(texts(t.path("cores"))).containsExactly("0-1", "2-3", "4-5", "6-7");
    assertThat(t.path("smt").asBoolean()).isTrue();
    assertThat(t.path("numaNodes").path("0").asText()).isEqualTo("0-3");
    assertThat(t.path("numaNodes").path("1").asText()).isEqualTo("4-7");
    JsonNode sets = j.path("sets");
    assertThat(sets.path("isolated").asText()).isEqualTo("3-7");
    assertThat(sets.path("nohzFull").asText()).isEqualTo("3-7");
    assertThat(sets.path("isolatedWithSharedCore").asText()).isEqualTo("3");
    JsonNode cmd = j.path("cmdline");
    assertThat(cmd.path("isolcpus").asText()).isEqualTo("3-7");
    assertThat(texts(cmd.path("isolcpusFlags"))).containsExactlyInAnyOrder("managed_irq", "domain");
    assertThat(cmd.path("rcuNocbs").asText()).isEqualTo("3-7");
    assertThat(cmd.path("irqAffinity").asText()).isEqualTo("0-2");
    JsonNode pool = j.path("pool");
    assertThat(pool.path("cpus").asText()).isEqualTo("3-7");
    assertThat(pool.path("source").asText()).isEqualTo("ISOLATED");
    assertThat(pool.path("housekeeping").asText()).isEqualTo("0-2");
    assertThat(pool.path("order").toString()).isEqualTo("[4,5,6,7,3]");
    assertThat(pool.path("reason").asText())
        .contains("whole isolated cores 4-7 first")
        .contains("3 (core shared with non-isolated CPUs) last");
    List<String> siblingWarnings = new ArrayList<>();
    for (JsonNode w : j.path("warnings")) {
      if (w.path("kind").asText().equals("ISOLATED_SIBLING_NOT_ISOLATED")) {
        siblingWarnings.add(w.path("message").asText());
      }
    }
    assertThat(siblingWarnings).hasSize(1);
    assertThat(siblingWarnings.get(0)).contains("3").contains("2");
  }

  @Test
  void shouldPlaceDifferentCoreThreadsOnWholeIsolatedCoresFirstAndTheHalfIsolatedCoreLast() {
    JsonNode g = data("placements").path("differentCore");
    assertThat(statuses(g)).containsOnly("PINNED");
    assertThat(cpus(g)).containsExactly(4, 6, 3);
    assertThat(cpus(g).stream().map(ShapeAIT::core).distinct()).hasSize(3);
    readBackMatches(g, HOUSEKEEPING);
  }

  @Test
  void shouldFollowTheTopologyForSameCoreSocketAndNumaPlacements() {
    JsonNode p = data("placements");
    assertThat(cpus(p.path("sameCore"))).containsExactly(4, 5);
    List<Integer> socket = cpus(p.path("differentSocket"));
    assertThat(socket).hasSize(2).doesNotContain(-1);
    assertThat(node(socket.get(1))).isNotEqualTo(node(socket.get(0)));
    List<Integer> same = cpus(p.path("sameNumaNode"));
    assertThat(same).hasSize(2).doesNotContain(-1);
    assertThat(node(same.get(1))).isEqualTo(node(same.get(0)));
    assertThat(core(same.get(1))).isNotEqualTo(core(same.get(0)));
    // 4 threads alternating nodes: node 0 has only CPU 3 in the pool, so the 4th cannot be placed
    JsonNode other = p.path("differentNumaNode");
    assertThat(cpus(other).subList(0, 3)).containsExactly(4, 3, 6);
    assertThat(statuses(other).get(3)).isEqualTo("UNPINNED");
    for (String group :
        List.of("sameCore", "differentSocket", "sameNumaNode", "differentNumaNode")) {
      readBackMatches(p.path(group), HOUSEKEEPING);
    }
  }

  @Test
  void shouldPinEveryPoolCpuOnceAndRunTheRestUnpinnedWhenThePoolRunsOut() {
    JsonNode g = data("placements").path("overflow");
    assertThat(statuses(g))
        .containsExactly("PINNED", "PINNED", "PINNED", "PINNED", "PINNED", "UNPINNED");
    assertThat(cpus(g).subList(0, 5)).containsExactlyInAnyOrder(3, 4, 5, 6, 7);
    readBackMatches(g, HOUSEKEEPING);
  }

  @Test
  void shouldHoldWholeCoresSoThatAnotherProcessGetsNeitherTheIdleSiblingNorTheCore() {
    JsonNode w = data("wholecore");
    long pid = w.path("pid").asLong();
    // pool 3-7: whole cores 4-5 and 6-7; CPU 3's sibling 2 is not in the pool, so its core is not
    List<String> reasons = new ArrayList<>();
    List<Integer> seatCpus = new ArrayList<>();
    w.path("seats").forEach(s -> seatCpus.add(s.path("cpu").asInt(-2)));
    w.path("seats").forEach(s -> reasons.add(s.path("reason").asText()));
    assertThat(seatCpus).containsExactly(4, 6, -1);
    assertThat(reasons.get(0)).endsWith("whole core 4-5");
    assertThat(reasons.get(1)).endsWith("whole core 6-7");
    assertThat(reasons.get(2)).contains("no whole core of the pool is free");
    JsonNode bound = w.path("bound");
    assertThat(statuses(bound)).containsExactly("PINNED", "PINNED");
    readBackMatches(bound, HOUSEKEEPING);
    List<String> leaseCpus = new ArrayList<>();
    bound.path("threads").forEach(t -> leaseCpus.add(t.path("leaseCpus").asText()));
    assertThat(leaseCpus).containsExactly("4-5", "6-7");
    assertThat(w.path("held").asText()).isEqualTo("4-7");
    for (int cpu = 4; cpu <= 7; cpu++) {
      assertThat(w.path("lockFiles").path(String.valueOf(cpu)).asText())
          .as("cpu-%d.lock", cpu)
          .startsWith(pid + "\n");
    }
    assertThat(w.path("probeExit").asInt()).as(w.path("probeOutput").asText()).isZero();
    JsonNode probe = w.path("probe");
    for (String held : List.of("5", "7", "4+5")) { // the idle siblings, and the core as a whole
      assertThat(probe.path(held).path("status").asText())
          .as("%s: %s", held, w.path("probeOutput").asText())
          .isEqualTo("HELD_BY_OTHER_PROCESS");
      assertThat(probe.path(held).path("reason").asText()).contains("claims pid " + pid);
    }
    assertThat(probe.path("2+3").path("status").asText()).as("a free core").isEqualTo("RESERVED");
    assertThat(w.path("reservedAfter").asText()).isEmpty();
    assertThat(w.path("retaken").asText()).isEqualTo("4-7");
  }

  @Test
  void shouldAuditExclusiveThenSharedWithTheIntruderThenExclusiveAfterConfine() {
    JsonNode a = data("audit");
    assertThat(CpuSet.parse("4-7").contains(a.path("cpu").asInt())).isTrue();
    assertThat(a.path("alone").path("verdict").asText()).isEqualTo("EXCLUSIVE");
    assertThat(a.path("intruded").path("verdict").asText()).isEqualTo("INTRUDED");
    List<String> names = new ArrayList<>();
    a.path("intruded").path("intruders").forEach(i -> names.add(i.path("name").asText()));
    assertThat(names).contains("intruder-busy");
    assertThat(texts(a.path("moved"))).contains("intruder-busy");
    assertThat(a.path("confined").path("verdict").asText()).isEqualTo("EXCLUSIVE");
  }

  @Test
  void shouldAdviseBusySpinOnIsolatedCoresAndRunTheDemoWithoutLoss() {
    JsonNode d = data("disruptor");
    assertThat(d.path("strategy").asText()).isEqualTo("BUSY_SPIN");
    assertThat(d.path("reason").asText()).isNotBlank();
    assertThat(d.path("demoExit").asInt()).as("demo exit (0 = nothing lost or reordered)").isZero();
    assertThat(d.path("demoOutput").asText()).contains("BUSY_SPIN").doesNotContain("MISSING");
  }

  @Test
  void shouldEchoEveryMessageInOrderFromTheGatewayPinnedOnThePool() {
    JsonNode g = data("gateway");
    assertThat(g.path("healthy").asBoolean()).isTrue();
    JsonNode e = g.path("echo");
    assertThat(e.path("received").asLong()).isEqualTo(e.path("sent").asLong()).isEqualTo(200);
    assertThat(e.path("lost").asLong()).isZero();
    assertThat(e.path("outOfOrder").asLong()).isZero();
    List<Integer> loopCpus = new ArrayList<>();
    for (String line : g.path("metrics").asText().split("\n")) {
      if (line.startsWith("affinitykit_loop_cpu{")) {
        loopCpus.add((int) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
      }
    }
    assertThat(loopCpus).isNotEmpty().allSatisfy(c -> assertThat(c).isBetween(3, 7));
  }
}
