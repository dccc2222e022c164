package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuTopology;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.testkit.FakeHost;
import io.github.affinitykit.core.testkit.Fixtures;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CpuRolesTest {
  private static HostCpus fixture(String name) {
    return HostCpus.probe(Fixtures.root(name));
  }

  private static CpuSet cpus(String list) {
    return CpuSet.parse(list);
  }

  @Test
  void shouldPutEveryRoleOnCoresOfItsOwnWithTheServerInThePoolOnEveryFixtureTree() {
    List<String> trees = new ArrayList<>(Fixtures.HWLOC);
    trees.add(Fixtures.E5);
    for (String tree : trees) {
      HostCpus host = fixture(tree);

      CpuRoles roles = CpuRoles.of(host);

      assertThat(roles.server().isEmpty()).as(tree).isFalse();
      assertThat(roles.client().isEmpty()).as(tree).isFalse();
      assertThat(host.pool().cpus().containsAll(roles.server())).as(tree).isTrue();
      assertThat(host.pool().housekeeping().containsAll(roles.housekeeping())).as(tree).isTrue();
      assertThat(cores(host, roles.server()))
          .as(tree)
          .doesNotContainAnyElementsOf(cores(host, roles.client()));
      assertThat(cores(host, roles.housekeeping()))
          .as(tree)
          .doesNotContainAnyElementsOf(cores(host, roles.server()))
          .doesNotContainAnyElementsOf(cores(host, roles.client()));
      if (nodes(host, host.reachable()).size() > 1) {
        assertThat(nodes(host, roles.client()))
            .as(tree + ": the client on another NUMA node")
            .doesNotContainAnyElementsOf(nodes(host, roles.server()));
      }
      assertThat(roles.explanation()).as(tree).startsWith("CPUs from the host: server ");
    }
  }

  @Test
  void shouldServeFromTheIsolatedThreadsAndLoadFromTheOtherNodeWhenGivenTheSeedMachine() {
    // isolcpus=19-23: hyper-threads of cores 7-11 on node 1; node 0 is 0-5,12-17
    CpuRoles roles = CpuRoles.of(fixture(Fixtures.E5));

    assertThat(roles.server()).isEqualTo(cpus("19-23"));
    assertThat(roles.client()).isEqualTo(cpus("0-4,12-16"));
    assertThat(roles.housekeeping()).isEqualTo(cpus("6,18"));
    assertThat(roles.explanation())
        .isEqualTo(
            "CPUs from the host: server 19-23 (5 cores, node 1), client 0-4,12-16 (5 cores,"
                + " node 0), housekeeping 6,18 (1 core, node 1, the doctor's housekeeping CPUs)");
  }

  @Test
  void shouldFillTheServersNodeAndPutTheClientOnTheNearestOtherWhenGivenFourNodes() {
    // 128 CPUs, nodes of 32, distances from node 0: 10 16 32 33
    CpuRoles roles = CpuRoles.of(fixture("128arm-2pa2n8cluster4co"));

    assertThat(roles.housekeeping()).isEqualTo(cpus("0"));
    assertThat(roles.server()).isEqualTo(cpus("1-31"));
    assertThat(roles.client()).isEqualTo(cpus("32-62"));
  }

  @Test
  void shouldSplitTheTwoCpusOfThisMachinesShapeWithoutHousekeepingOfItsOwn(@TempDir Path dir) {
    // the development machine: 2 CPUs, no SMT, one NUMA node; the doctor keeps CPU 0
    CpuRoles roles = CpuRoles.of(FakeHost.create(dir, 2, 1).probe());

    assertThat(roles.server()).isEqualTo(cpus("1"));
    assertThat(roles.client()).isEqualTo(cpus("0"));
    assertThat(roles.housekeeping().isEmpty()).isTrue();
    assertThat(roles.explanation())
        .isEqualTo(
            "CPUs from the host: server 1 (1 core, node 0), client 0 (1 core, node 0), no"
                + " housekeeping CPUs of its own (too few cores: the pinned gateways' boss, GC and"
                + " JIT run beside the client)");
  }

  @Test
  void shouldKeepSmtSiblingsTogetherWhenGivenTwoCoresOfTwoThreads(@TempDir Path dir) {
    // siblings 0,2 and 1,3
    CpuRoles roles = CpuRoles.of(FakeHost.create(dir, 4, 2).probe());

    assertThat(roles.server()).isEqualTo(cpus("1,3"));
    assertThat(roles.client()).isEqualTo(cpus("0,2"));
    assertThat(roles.housekeeping().isEmpty()).isTrue();
  }

  @Test
  void shouldShareTheOnlyCoreAndSaySoWhenGivenOneCoreOfTwoThreads(@TempDir Path dir) {
    CpuRoles roles = CpuRoles.of(FakeHost.create(dir, 2, 2).probe());

    assertThat(roles.client()).isEqualTo(cpus("0"));
    assertThat(roles.server()).isEqualTo(cpus("1"));
    assertThat(roles.explanation()).endsWith("(only 1 core for them: they share cores)");
  }

  @Test
  void shouldSizeAndPlaceTheOtherRolesAroundAGivenServer() {
    HostCpus host = fixture("128arm-2pa2n8cluster4co");

    CpuRoles roles =
        CpuRoles.of(host, Optional.of(cpus("64-71")), Optional.empty(), Optional.empty());

    assertThat(roles.server()).isEqualTo(cpus("64-71"));
    assertThat(roles.client()).isEqualTo(cpus("96-103")); // node 3 is nearest to node 2
    assertThat(roles.housekeeping()).isEqualTo(cpus("0"));
    assertThat(roles.explanation()).contains("server 64-71 (8 cores, node 2, --server-cpus)");
  }

  @Test
  void shouldGiveTheServerAsManyCoresAsAGivenClient() {
    HostCpus host = fixture(Fixtures.E5);

    CpuRoles roles =
        CpuRoles.of(host, Optional.empty(), Optional.of(cpus("1,13")), Optional.of(cpus("0,12")));

    assertThat(roles.server()).isEqualTo(cpus("19"));
    assertThat(roles.client()).isEqualTo(cpus("1,13"));
    assertThat(roles.housekeeping()).isEqualTo(cpus("0,12"));
    assertThat(roles.explanation())
        .contains("client 1,13 (1 core, node 0, --client-cpus)")
        .contains("housekeeping 0,12 (1 core, node 0, --housekeeping-cpus)");
  }

  private static Set<CpuSet> cores(HostCpus host, CpuSet cpus) {
    Set<CpuSet> out = new java.util.HashSet<>();
    CpuTopology t = host.topology();
    cpus.forEach(cpu -> out.add(t.cpu(cpu).core()));
    return out;
  }

  private static Set<Integer> nodes(HostCpus host, CpuSet cpus) {
    Set<Integer> out = new TreeSet<>();
    cpus.forEach(cpu -> out.add(host.topology().cpu(cpu).node()));
    return out;
  }
}
