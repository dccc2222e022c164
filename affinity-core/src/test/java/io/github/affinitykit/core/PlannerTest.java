package io.github.affinitykit.core;

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

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuTopology;
import io.github.affinitykit.core.host.CpuPool;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.placement.Placement;
import io.github.affinitykit.core.testkit.Fixtures;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PlannerTest {
  private static final CpuTopology E5 = HostCpus.probe(Fixtures.root(Fixtures.E5)).topology();

  /** Every E5 CPU but the housekeeping core {0,12}. */
  private static final CpuSet E5_POOL = CpuSet.parse("1-11,13-23");

  /** One member's plan: its CPU (-1: none) and the planner's reason. */
  private record Choice(int cpu, String reason) {
    boolean found() {
      return cpu >= 0;
    }
  }

  private static List<Choice> plan(CpuTopology t, int n, CpuSet pool, Placement... p) {
    return plan(t, n, pool, CpuSet.empty(), p);
  }

  /** Plans {@code n} members as their group does: each choice found is held, then placed. */
  private static List<Choice> plan(CpuTopology t, int n, CpuSet pool, CpuSet busy, Placement... p) {
    Planner planner = new Planner(t, pool, List.of(p), false);
    List<Choice> plan = new ArrayList<>();
    CpuSet held = CpuSet.empty();
    for (int i = 0; i < n; i++) {
      int cpu = planner.next(held, busy);
      Choice c = new Choice(cpu, planner.reason());
      plan.add(c);
      if (c.found()) {
        held = held.union(CpuSet.of(c.cpu()));
        planner.placed(c.cpu());
      }
    }
    return plan;
  }

  private static CpuSet cpus(List<Choice> plan) {
    return CpuSet.of(plan.stream().filter(Choice::found).mapToInt(Choice::cpu).toArray());
  }

  /** The order a pool of {@code cpus} hands them out on the E5 ({@link CpuPool#order}). */
  private static List<Integer> poolOrder(CpuSet cpus) {
    return new CpuPool(cpus, CpuSet.empty(), CpuPool.Source.OVERRIDE, "test").order(E5);
  }

  @Test
  void shouldGiveSixDistinctPhysicalCoresWhenSixThreadsAskForDifferentCores() {
    List<Choice> plan = plan(E5, 6, E5_POOL, DIFFERENT_CORE, ANY);

    Set<CpuSet> cores = new HashSet<>();
    for (Choice s : plan) {
      assertThat(s.found()).isTrue();
      assertThat(E5_POOL.contains(s.cpu())).isTrue();
      cores.add(E5.cpu(s.cpu()).core());
    }
    assertThat(cores).hasSize(6);
    assertThat(cpus(plan)).hasToString("1-6");
  }

  @Test
  void shouldFallBackToTheNextPlacementWhenCoresRunOut() {
    List<Choice> plan = plan(E5, 12, E5_POOL, DIFFERENT_CORE, ANY);

    assertThat(plan.stream().filter(s -> s.reason().equals("DIFFERENT_CORE"))).hasSize(10);
    assertThat(plan.get(11).reason()).isEqualTo("ANY");
    assertThat(cpus(plan).size()).isEqualTo(12);
  }

  @Test
  void shouldGiveTheSmtSiblingWhenAskedForTheSameCore() {
    List<Choice> plan = plan(E5, 2, E5_POOL, SAME_CORE);

    assertThat(plan.get(0).cpu()).isEqualTo(1);
    assertThat(plan.get(1).cpu()).isEqualTo(13);
  }

  @Test
  void shouldAlternateSocketsAndStayOnOneWhenAsked() {
    List<Choice> other = plan(E5, 4, E5_POOL, DIFFERENT_SOCKET);
    assertThat(other).extracting(s -> E5.cpu(s.cpu()).packageId()).containsExactly(0, 1, 0, 1);

    List<Choice> same = plan(E5, 5, E5_POOL, SAME_SOCKET);
    assertThat(same).extracting(s -> E5.cpu(s.cpu()).packageId()).containsOnly(0);
    assertThat(cpus(same)).hasToString("1-5");
  }

  @Test
  void shouldHonourNumaNodes() {
    List<Choice> same = plan(E5, 6, CpuSet.parse("5-7,17-19"), SAME_NUMA_NODE);
    assertThat(cpus(same)).hasToString("5,17");
    assertThat(same.get(2).found()).isFalse(); // node 0 has only 5 and 17 in this pool
    assertThat(same.get(2).reason()).contains("SAME_NUMA_NODE").contains("after CPU 17");

    List<Choice> other = plan(E5, 2, E5_POOL, DIFFERENT_NUMA_NODE);
    assertThat(E5.cpu(other.get(1).cpu()).node()).isEqualTo(1);
  }

  @Test
  void shouldStayInsideOneL3WhenAskedOnAnAmdTopology() {
    CpuTopology amd = HostCpus.probe(Fixtures.root("48amd64-4pa2n6c-sparse")).topology();
    CpuSet pool = amd.known();

    List<Choice> plan = plan(amd, 3, pool, SAME_L3);

    CpuSet l3 = amd.cpu(plan.get(0).cpu()).l3();
    assertThat(l3.isEmpty()).isFalse();
    for (Choice s : plan) {
      assertThat(l3.contains(s.cpu())).as("slot %s in L3 %s", s, l3).isTrue();
    }
  }

  @Test
  void shouldAvoidBusyCpusAndReportExhaustion() {
    List<Choice> plan = plan(E5, 3, CpuSet.parse("1-2"), CpuSet.of(1));

    assertThat(plan.get(0).cpu()).isEqualTo(2);
    assertThat(plan.get(1).found()).isFalse();
    assertThat(plan.get(1).reason()).contains("exhausted");
  }

  @Test
  void shouldPlanTheSameWayEveryTime() {
    List<Choice> a = plan(E5, 9, E5_POOL, DIFFERENT_CORE, SAME_SOCKET, ANY);
    List<Choice> b =
        plan(
            HostCpus.probe(Fixtures.root(Fixtures.E5)).topology(),
            9,
            E5_POOL,
            DIFFERENT_CORE,
            SAME_SOCKET,
            ANY);

    assertThat(a).isEqualTo(b);
  }

  @Test
  void shouldRejectBadRequestsNamingTheValue() {
    assertThatThrownBy(() -> new Planner(E5, CpuSet.of(30), List.of(), false))
        .hasMessageContaining("pool: 30")
        .hasMessageContaining("unknown: 30");
    assertThatThrownBy(() -> Placement.fromName("SAME_CACHE")).hasMessageContaining("SAME_CACHE");
    assertThat(Placement.fromName("DIFFERENT_CORE")).isEqualTo(DIFFERENT_CORE);
  }

  @Test
  void shouldTakeWholeCoresBeforeACoreSharedWithCpusOutsideThePool() {
    // E5: 3's sibling 15 is outside the pool (as isolcpus=19-23 leaves 7-11 busy); 4+16 is whole
    CpuSet pool = CpuSet.parse("3,4,16");

    assertThat(plan(E5, 2, pool, DIFFERENT_CORE)).extracting(Choice::cpu).containsExactly(4, 3);
    assertThat(plan(E5, 1, pool, ANY).get(0).cpu()).isEqualTo(4);
    assertThat(poolOrder(pool)).containsExactly(4, 16, 3);
  }

  @Test
  void shouldPutEveryHalfIsolatedCpuOfTheSeedLastButKeepItsOrder() {
    // isolcpus=19-23 on the E5: every isolated CPU is a hyper-thread of a busy core
    assertThat(poolOrder(CpuSet.parse("19-23"))).containsExactly(19, 20, 21, 22, 23);
    assertThat(poolOrder(CpuSet.parse("8,19-23,21"))).containsExactly(8, 20, 19, 21, 22, 23);
  }
}
