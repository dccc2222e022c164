package io.github.affinitykit.core.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.cpu.CoreType;
import io.github.affinitykit.core.cpu.CpuInfo;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuTopology;
import io.github.affinitykit.core.testkit.Fixtures;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Facts about the fixture machines, checked by hand against their sysfs files. */
class CpuTopologyFixtureTest {
  @Test
  void shouldModelTheSeedMachineWhenLoadingE5() {
    CpuTopology t = TopologyReader.load(Fixtures.root(Fixtures.E5));

    assertThat(t.source()).isEqualTo("sysfs");
    assertThat(t.known()).isEqualTo(CpuSet.range(0, 23));
    assertThat(t.possibleCount()).isEqualTo(24);
    assertThat(t.packages()).containsExactly(CpuSet.parse("0-5,12-17"), CpuSet.parse("6-11,18-23"));
    assertThat(t.cores()).hasSize(12);
    assertThat(t.smt()).isTrue();
    for (CpuInfo c : t.cpus()) {
      int sibling = c.cpu() < 12 ? c.cpu() + 12 : c.cpu() - 12;
      assertThat(c.core()).as("core of %d", c.cpu()).isEqualTo(CpuSet.of(c.cpu(), sibling));
      assertThat(c.hasSmtSibling()).isTrue();
      assertThat(c.l3()).isEqualTo(c.packageCpus());
      assertThat(c.l2()).isEqualTo(c.core());
      assertThat(c.coreType()).isEqualTo(CoreType.UNIFORM);
    }
    assertThat(t.numaNodes())
        .containsEntry(0, CpuSet.parse("0-5,12-17"))
        .containsEntry(1, CpuSet.parse("6-11,18-23"))
        .hasSize(2);
    assertThat(t.distance(0, 0)).isEqualTo(10);
    assertThat(t.distance(0, 1)).isEqualTo(21);
    assertThat(t.distance(1, 0)).isEqualTo(21);
    assertThat(t.distance(0, 2)).isEqualTo(-1);
    assertThat(t.cpu(19).core()).isEqualTo(CpuSet.of(7, 19));
    assertThat(t.toString()).contains("2 packages, 12 cores, 24 cpus (0-23), 2 numa nodes");
  }

  @Test
  void shouldTellPerformanceFromEfficiencyCoresWhenLoadingHybrid() {
    CpuTopology t = TopologyReader.load(Fixtures.root("20em64t-hybrid-1p6c2t+2ca4co1t"));

    CpuSet pCores = CpuSet.range(0, 11);
    for (CpuInfo c : t.cpus()) {
      boolean p = pCores.contains(c.cpu());
      assertThat(c.coreType())
          .as("cpu %d", c.cpu())
          .isEqualTo(p ? CoreType.PERFORMANCE : CoreType.EFFICIENCY);
      assertThat(c.kind()).as("cpu %d", c.cpu()).isEqualTo(p ? 1 : 0);
      assertThat(c.core().size()).as("cpu %d", c.cpu()).isEqualTo(p ? 2 : 1);
    }
    // 6 P-cores of 2 threads, 8 E-cores of 1; the E-cores share an L2 by 4 (cluster).
    assertThat(t.cores()).hasSize(14).startsWith(CpuSet.range(0, 1), CpuSet.range(2, 3));
    assertThat(t.l2Groups())
        .containsExactly(
            CpuSet.range(0, 1),
            CpuSet.range(2, 3),
            CpuSet.range(4, 5),
            CpuSet.range(6, 7),
            CpuSet.range(8, 9),
            CpuSet.range(10, 11),
            CpuSet.range(12, 15),
            CpuSet.range(16, 19));
    assertThat(t.l3Groups()).containsExactly(CpuSet.range(0, 19));
    // CPUs 4, 5, 8, 9 are Turbo Boost Max 3.0 favoured cores (5.2 GHz, others 5.0): same kind.
    assertThat(t.cpu(4).kind()).isEqualTo(t.cpu(0).kind());
  }

  @Test
  void shouldKeepSparseNodeIdsAndTheirDistancesWhenLoadingSparse() {
    CpuTopology t = TopologyReader.load(Fixtures.root("48amd64-4pa2n6c-sparse"));

    assertThat(t.numaNodes().keySet()).containsExactly(0, 1, 2, 33, 34, 45, 72, 73);
    assertThat(t.numaNodes().get(33)).isEqualTo(CpuSet.range(18, 23));
    assertThat(t.cpu(47).node()).isEqualTo(73);
    // Row i of nodeN/distance is the i-th node of node/online, not node i.
    assertThat(t.distance(2, 33)).isEqualTo(16);
    assertThat(t.distance(0, 73)).isEqualTo(22);
    assertThat(t.distance(73, 73)).isEqualTo(10);
    assertThat(t.distance(3, 0)).isEqualTo(-1);
    // AMD Magny-Cours: 2 dies of 6 cores per package, an L3 per die.
    assertThat(t.packages()).hasSize(4).first().isEqualTo(CpuSet.range(0, 11));
    assertThat(t.l3Groups()).hasSize(8).startsWith(CpuSet.range(0, 5), CpuSet.range(6, 11));
    assertThat(t.l2Groups()).hasSize(48);
    assertThat(t.smt()).isFalse();
  }

  @Test
  void shouldExcludeOfflineCpusWhenTheKernelHasNoPopulationFiles() {
    // This old kernel has neither cpu/possible nor cpu/online: cpuN dirs and cpuN/online decide.
    CpuTopology t = TopologyReader.load(Fixtures.root("16em64t-4s2c2t-offlines"));

    assertThat(t.possible()).isEqualTo(CpuSet.range(0, 15));
    assertThat(t.present()).isEqualTo(CpuSet.range(0, 15));
    assertThat(t.online()).isEqualTo(CpuSet.parse("0-1,3-4,6-12,15"));
    assertThat(t.offline()).isEqualTo(CpuSet.parse("2,5,13-14"));
    assertThat(t.known()).isEqualTo(t.online());
    assertThat(t.possibleCount()).isEqualTo(16);
    // CPU 6 lost its sibling 14, CPU 10 its sibling 2: single-thread cores now.
    assertThat(t.cpu(6).core()).isEqualTo(CpuSet.of(6));
    assertThat(t.cpu(0).core()).isEqualTo(CpuSet.of(0, 8));
    assertThat(t.packages())
        .containsExactly(
            CpuSet.parse("0,4,8,12"),
            CpuSet.parse("1,9"),
            CpuSet.parse("3,7,11,15"),
            CpuSet.parse("6,10"));
    // node0 has no cpulist here, only the cpumap mask.
    assertThat(t.numaNodes()).containsOnlyKeys(0).containsEntry(0, t.known());
    assertThatThrownBy(() -> t.cpu(2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cpu: 2 (expected: one of 0-1,3-4,6-12,15)");
  }

  @Test
  void shouldIgnoreStaleTopologyOfAnOfflineCpuWhenLoadingCpusets() {
    CpuTopology t = TopologyReader.load(Fixtures.root("16amd64-8n2c-cpusets"));

    // cpu4/online is 0 but cpu4/topology is still there, claiming package 2 with CPU 5 only.
    assertThat(t.online()).isEqualTo(CpuSet.parse("0-3,5-15"));
    assertThat(t.offline()).isEqualTo(CpuSet.of(4));
    assertThat(t.known()).isEqualTo(t.online());
    assertThat(t.cpu(5).packageCpus()).isEqualTo(CpuSet.of(5));
    // node2/cpulist still says 4-5: only the known CPU counts.
    assertThat(t.numaNodes().get(2)).isEqualTo(CpuSet.of(5));
    assertThat(t.l3Groups()).isEmpty();
    assertThatThrownBy(() -> t.cpu(4)).hasMessage("cpu: 4 (expected: one of 0-3,5-15)");
  }

  @Test
  void shouldSizeMasksFromPossibleWhenMostCpusAreNotPresent() {
    CpuTopology t = TopologyReader.load(Fixtures.root("32intel64-2p8co2t+8ve"));

    assertThat(t.possible()).isEqualTo(CpuSet.range(0, 111));
    assertThat(t.present()).isEqualTo(CpuSet.range(0, 31));
    assertThat(t.offline()).isEqualTo(CpuSet.range(32, 111));
    assertThat(t.known()).isEqualTo(CpuSet.range(0, 31));
    assertThat(t.possibleCount()).isEqualTo(112);
    assertThat(t.cpu(31).core()).isEqualTo(CpuSet.of(15, 31));
  }

  @Test
  void shouldGroupL3ByNodeAndReadNulTerminatedFilesWhenLoadingArmClusters() {
    // This 5.15-rc kernel ends its bitmap files with a NUL byte.
    CpuTopology t = TopologyReader.load(Fixtures.root("128arm-2pa2n8cluster4co"));

    assertThat(t.l3Groups())
        .containsExactly(
            CpuSet.range(0, 31), CpuSet.range(32, 63), CpuSet.range(64, 95), CpuSet.range(96, 127));
    assertThat(t.l2Groups()).hasSize(128);
    assertThat(t.packages()).containsExactly(CpuSet.range(0, 63), CpuSet.range(64, 127));
    CpuInfo c = t.cpu(0);
    assertThat(List.of(c.packageId(), c.dieId(), c.clusterId(), c.coreId()))
        .containsExactly(36, -1, 138, 0);
    assertThat(t.cpu(64).packageId()).isEqualTo(8442);
    assertThat(t.distance(0, 3)).isEqualTo(33);
    // cpu_capacity is 1024 everywhere: not hybrid.
    assertThat(c.coreType()).isEqualTo(CoreType.UNIFORM);
  }

  @Test
  void shouldModelEachOldArmCpuAsItsOwnCoreWithoutNumaWhenLoadingArm() {
    CpuTopology t = TopologyReader.load(Fixtures.root("2arm-2c"));

    assertThat(t.cores()).containsExactly(CpuSet.of(0), CpuSet.of(1));
    assertThat(t.packages()).containsExactly(CpuSet.range(0, 1));
    assertThat(t.numaNodes()).isEmpty();
    assertThat(t.cpu(0).node()).isEqualTo(-1);
    assertThat(t.distance(0, 0)).isEqualTo(-1);
    assertThat(t.l2Groups()).isEmpty();
  }

  @Test
  void shouldFollowEachCpusNodeLinkWhenNodeListsOverlap() {
    CpuTopology t = TopologyReader.load(Fixtures.root("8em64t-2s2ca2c-buggynuma"));

    assertThat(t.numaNodes()).hasSize(8);
    for (int cpu = 0; cpu < 8; cpu++) {
      assertThat(t.numaNodes().get(cpu)).isEqualTo(CpuSet.of(cpu));
    }
    assertThat(t.distance(0, 7)).isEqualTo(10);
    assertThat(t.l2Groups())
        .containsExactly(CpuSet.of(0, 2), CpuSet.of(1, 3), CpuSet.of(4, 6), CpuSet.of(5, 7));
  }
}
