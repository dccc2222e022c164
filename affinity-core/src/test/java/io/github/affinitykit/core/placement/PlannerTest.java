package io.github.affinitykit.core.placement;

import static io.github.affinitykit.core.placement.Placement.ANY;
import static io.github.affinitykit.core.placement.Placement.DIFFERENT_CORE;
import static io.github.affinitykit.core.placement.Placement.DIFFERENT_NUMA_NODE;
import static io.github.affinitykit.core.placement.Placement.DIFFERENT_SOCKET;
import static io.github.affinitykit.core.placement.Placement.SAME_CORE;
import static io.github.affinitykit.core.placement.Placement.SAME_L3;
import static io.github.affinitykit.core.placement.Placement.SAME_NUMA_NODE;
import static io.github.affinitykit.core.placement.Placement.SAME_SOCKET;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.host.CpuTopology;
import io.github.affinitykit.core.testkit.Fixtures;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PlannerTest {
  private static final CpuTopology E5 = CpuTopology.load(Fixtures.root(Fixtures.E5));

  /** Every E5 CPU but the housekeeping core {0,12}. */
  private static final CpuSet E5_POOL = CpuSet.parse("1-11,13-23");

  private static Plan plan(CpuTopology t, int n, CpuSet pool, Placement... p) {
    return new Planner(t).plan(n, pool, CpuSet.empty(), List.of(p));
  }

  @Test
  void shouldGiveSixDistinctPhysicalCoresWhenSixThreadsAskForDifferentCores() {
    Plan plan = plan(E5, 6, E5_POOL, DIFFERENT_CORE, ANY);

    Set<CpuSet> cores = new HashSet<>();
    for (Plan.Slot s : plan.slots()) {
      assertThat(s.placed()).isTrue();
      assertThat(E5_POOL.contains(s.cpu())).isTrue();
      cores.add(E5.cpu(s.cpu()).core());
    }
    assertThat(cores).hasSize(6);
    assertThat(plan.cpus()).hasToString("1-6");
  }

  @Test
  void shouldFallBackToTheNextPlacementWhenCoresRunOut() {
    Plan plan = plan(E5, 12, E5_POOL, DIFFERENT_CORE, ANY);

    assertThat(plan.slots().stream().filter(s -> s.reason().equals("DIFFERENT_CORE"))).hasSize(10);
    assertThat(plan.slots().get(11).reason()).isEqualTo("ANY");
    assertThat(plan.cpus().size()).isEqualTo(12);
  }

  @Test
  void shouldGiveTheSmtSiblingWhenAskedForTheSameCore() {
    Plan plan = plan(E5, 2, E5_POOL, SAME_CORE);

    assertThat(plan.cpu(0)).isEqualTo(1);
    assertThat(plan.cpu(1)).isEqualTo(13);
  }

  @Test
  void shouldAlternateSocketsAndStayOnOneWhenAsked() {
    Plan other = plan(E5, 4, E5_POOL, DIFFERENT_SOCKET);
    assertThat(other.slots())
        .extracting(s -> E5.cpu(s.cpu()).packageId())
        .containsExactly(0, 1, 0, 1);

    Plan same = plan(E5, 5, E5_POOL, SAME_SOCKET);
    assertThat(same.slots()).extracting(s -> E5.cpu(s.cpu()).packageId()).containsOnly(0);
    assertThat(same.cpus()).hasToString("1-5");
  }

  @Test
  void shouldHonourNumaNodes() {
    Plan same = plan(E5, 6, CpuSet.parse("5-7,17-19"), SAME_NUMA_NODE);
    assertThat(same.cpus()).hasToString("5,17");
    assertThat(same.slots().get(2).placed()).isFalse(); // node 0 has only 5 and 17 in this pool
    assertThat(same.slots().get(2).reason()).contains("SAME_NUMA_NODE").contains("after CPU 17");

    Plan other = plan(E5, 2, E5_POOL, DIFFERENT_NUMA_NODE);
    assertThat(E5.cpu(other.cpu(1)).node()).isEqualTo(1);
  }

  @Test
  void shouldStayInsideOneL3WhenAskedOnAnAmdTopology() {
    CpuTopology amd = CpuTopology.load(Fixtures.root("48amd64-4pa2n6c-sparse"));
    CpuSet pool = amd.known();

    Plan plan = plan(amd, 3, pool, SAME_L3);

    CpuSet l3 = amd.cpu(plan.cpu(0)).l3();
    assertThat(l3.isEmpty()).isFalse();
    for (Plan.Slot s : plan.slots()) {
      assertThat(l3.contains(s.cpu())).as("slot %s in L3 %s", s, l3).isTrue();
    }
  }

  @Test
  void shouldAvoidBusyCpusAndReportExhaustion() {
    Plan plan = new Planner(E5).plan(3, CpuSet.parse("1-2"), CpuSet.of(1), List.of());

    assertThat(plan.cpu(0)).isEqualTo(2);
    assertThat(plan.slots().get(1).placed()).isFalse();
    assertThat(plan.slots().get(1).reason()).contains("exhausted");
  }

  @Test
  void shouldPlanTheSameWayEveryTime() {
    Plan a = plan(E5, 9, E5_POOL, DIFFERENT_CORE, SAME_SOCKET, ANY);
    Plan b =
        plan(
            CpuTopology.load(Fixtures.root(Fixtures.E5)),
            9,
            E5_POOL,
            DIFFERENT_CORE,
            SAME_SOCKET,
            ANY);

    assertThat(a).isEqualTo(b);
  }

  @Test
  void shouldRejectBadRequestsNamingTheValue() {
    Planner p = new Planner(E5);
    assertThatThrownBy(() -> p.plan(-1, E5_POOL, CpuSet.empty(), List.of()))
        .hasMessage("threads: -1 (expected: >= 0)");
    assertThatThrownBy(() -> p.plan(1, CpuSet.of(30), CpuSet.empty(), List.of()))
        .hasMessageContaining("pool: 30")
        .hasMessageContaining("unknown: 30");
    assertThatThrownBy(() -> Placement.fromName("SAME_CACHE")).hasMessageContaining("SAME_CACHE");
    assertThat(Placement.fromName("DIFFERENT_CORE")).isEqualTo(DIFFERENT_CORE);
  }

  @Test
  void shouldTakeWholeCoresBeforeACoreSharedWithCpusOutsideThePool() {
    // E5: 3's sibling 15 is outside the pool (as isolcpus=19-23 leaves 7-11 busy); 4+16 is whole
    CpuSet pool = CpuSet.parse("3,4,16");

    assertThat(plan(E5, 2, pool, DIFFERENT_CORE).slots())
        .extracting(Plan.Slot::cpu)
        .containsExactly(4, 3);
    assertThat(plan(E5, 1, pool, ANY).cpu(0)).isEqualTo(4);
    assertThat(new Planner(E5).order(pool)).containsExactly(4, 16, 3);
  }

  @Test
  void shouldPutEveryHalfIsolatedCpuOfTheSeedLastButKeepItsOrder() {
    // isolcpus=19-23 on the E5: every isolated CPU is a hyper-thread of a busy core
    assertThat(new Planner(E5).order(CpuSet.parse("19-23"))).containsExactly(19, 20, 21, 22, 23);
    assertThat(new Planner(E5).order(CpuSet.parse("8,19-23,21")))
        .containsExactly(8, 20, 19, 21, 22, 23);
  }
}
