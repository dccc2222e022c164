package io.github.affinitykit.core.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.TestTree;
import io.github.affinitykit.core.cpu.CoreType;
import io.github.affinitykit.core.cpu.CpuInfo;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuTopology;
import io.github.affinitykit.core.internal.KernelLimits;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Cases no fixture has: written as small sysfs trees. */
class CpuTopologySyntheticTest {
  @TempDir Path dir;

  @Test
  void shouldKeepSparseCpuIdsWhenOnlySomeCpusExist() {
    TestTree tree =
        TestTree.at(dir)
            .file(TestTree.CPU + "/possible", "0-63")
            .file(TestTree.CPU + "/present", "0,2,40-41")
            .file(TestTree.CPU + "/online", "0,2,40-41")
            .file(TestTree.CPU + "/offline", "1,3-39,42-63")
            .cpu(0, 0, "0,40", "0,2,40-41")
            .cpu(40, 0, "0,40", "0,2,40-41")
            .cpu(2, 0, "2,41", "0,2,40-41")
            .cpu(41, 0, "2,41", "0,2,40-41");

    CpuTopology t = TopologyReader.load(tree.root());

    assertThat(t.known()).isEqualTo(CpuSet.parse("0,2,40-41"));
    assertThat(t.possibleCount()).isEqualTo(64);
    assertThat(t.cores()).containsExactly(CpuSet.of(0, 40), CpuSet.of(2, 41));
    assertThat(t.cpus()).extracting(CpuInfo::cpu).containsExactly(0, 2, 40, 41);
    assertThat(t.smt()).isTrue();
  }

  /**
   * Fuzzer-found: the probe looked for a topology directory for every id of the online list, so a
   * garbled {@code online} of 2^20 CPUs cost a million directory lookups (13 s under the fuzzer,
   * seconds without). Now only the {@code cpuN} directories that exist are read, and a list naming
   * a CPU past the kernel's limit (8192) is garbled: the directories decide. The timeout is 100
   * times what the fixed code needs here.
   */
  @Test
  @Timeout(value = 2, unit = TimeUnit.SECONDS)
  void shouldReadOnlyExistingCpuDirectoriesWhenTheOnlineListNamesAMillionCpus() {
    TestTree tree =
        TestTree.at(dir)
            .file(TestTree.CPU + "/online", "0-" + (CpuSet.MAX_CPUS - 1))
            .cpu(0, 0, "0", "0-1")
            .cpu(1, 0, "1", "0-1");

    CpuTopology t = TopologyReader.load(tree.root());

    assertThat(t.known()).isEqualTo(CpuSet.range(0, 1));
    assertThat(t.online()).isEqualTo(CpuSet.range(0, 1));

    tree.file(TestTree.CPU + "/online", "0-" + (KernelLimits.CPUS - 1));
    assertThat(TopologyReader.load(tree.root()).online().size()).isEqualTo(KernelLimits.CPUS);
  }

  /**
   * Fuzzer-found likewise: {@code node/online} of 2^20 nodes read 2^20 distance files (77 s). Past
   * the kernel's 1024 nodes the list is garbled and the {@code nodeN} directories decide.
   */
  @Test
  @Timeout(value = 2, unit = TimeUnit.SECONDS)
  void shouldReadOnlyExistingNodeDirectoriesWhenTheOnlineNodeListNamesAMillionNodes() {
    TestTree tree =
        TestTree.at(dir)
            .file(TestTree.CPU + "/online", "0-1")
            .cpu(0, 0, "0", "0-1")
            .cpu(1, 0, "1", "0-1")
            .file(TestTree.NODE + "/online", "0-" + (CpuSet.MAX_CPUS - 1))
            .file(TestTree.NODE + "/node0/cpulist", "0-1")
            .file(TestTree.NODE + "/node0/distance", "10");

    CpuTopology t = TopologyReader.load(tree.root());

    assertThat(t.numaNodes()).containsOnlyKeys(0);
    assertThat(t.distance(0, 0)).isEqualTo(10); // the one directory's row of one

    tree.file(TestTree.NODE + "/online", "0-" + (KernelLimits.NODES - 1));
    // a row of 1 for 1024 online nodes: inconsistent, unknown
    assertThat(TopologyReader.load(tree.root()).distance(0, 0)).isEqualTo(-1);
  }

  @Test
  void shouldMergeGroupsWhenCpusDisagreeAboutTheirSiblings() {
    TestTree tree =
        TestTree.at(dir)
            .file(TestTree.CPU + "/online", "0-2")
            .cpu(0, 0, "0-1", "0-2")
            .cpu(1, 0, "1", "1")
            .cpu(2, 0, "2", "2");

    CpuTopology t = TopologyReader.load(tree.root());

    assertThat(t.cores()).containsExactly(CpuSet.range(0, 1), CpuSet.of(2));
    assertThat(t.cpu(1).core()).isEqualTo(CpuSet.range(0, 1));
    assertThat(t.packages()).containsExactly(CpuSet.range(0, 2));
  }

  @Test
  void shouldGroupPackagesByIdWhenPackageListsAreMissing() {
    TestTree tree = TestTree.at(dir).file(TestTree.CPU + "/online", "0-3");
    for (int cpu = 0; cpu < 4; cpu++) {
      tree.file(TestTree.CPU + "/cpu" + cpu + "/topology/physical_package_id", "" + cpu / 2);
    }

    CpuTopology t = TopologyReader.load(tree.root());

    assertThat(t.packages()).containsExactly(CpuSet.range(0, 1), CpuSet.range(2, 3));
    // no sibling list at all: each CPU is its own core
    assertThat(t.cores()).hasSize(4);
    assertThat(t.cpu(3).coreId()).isEqualTo(-1);
  }

  @Test
  void shouldUseIntelPmuSetsWhenNoFrequencyTellsCoresApart() {
    TestTree tree = fourCpus().file("sys/devices/cpu_core/cpus", "0-1");
    tree.file("sys/devices/cpu_atom/cpus", "2-3");

    CpuTopology t = TopologyReader.load(tree.root());

    assertThat(t.cpu(0).coreType()).isEqualTo(CoreType.PERFORMANCE);
    assertThat(t.cpu(0).kind()).isEqualTo(1);
    assertThat(t.cpu(3).coreType()).isEqualTo(CoreType.EFFICIENCY);
    assertThat(t.cpu(3).kind()).isEqualTo(0);
  }

  @Test
  void shouldRankThreeKindsByCapacityWhenArmHasBigMidAndLittleCores() {
    TestTree tree = fourCpus();
    int[] capacity = {1024, 870, 870, 380};
    for (int cpu = 0; cpu < 4; cpu++) {
      tree.cpuFile(cpu, "cpu_capacity", "" + capacity[cpu]);
    }

    CpuTopology t = TopologyReader.load(tree.root());

    assertThat(t.cpus()).extracting(CpuInfo::kind).containsExactly(2, 1, 1, 0);
    assertThat(t.cpus())
        .extracting(CpuInfo::coreType)
        .containsExactly(
            CoreType.PERFORMANCE, CoreType.EFFICIENCY, CoreType.EFFICIENCY, CoreType.EFFICIENCY);
  }

  @Test
  void shouldSkipASourceThatSomeCpuLacksWhenRankingKinds() {
    TestTree tree = fourCpus();
    for (int cpu = 0; cpu < 4; cpu++) {
      // base_frequency on 3 CPUs only: unusable; nominal_perf everywhere decides.
      if (cpu > 0) {
        tree.cpuFile(cpu, "cpufreq/base_frequency", "1900000");
      }
      tree.cpuFile(cpu, "acpi_cppc/nominal_perf", cpu < 2 ? "24" : "19");
    }

    CpuTopology t = TopologyReader.load(tree.root());

    assertThat(t.cpus()).extracting(CpuInfo::kind).containsExactly(1, 1, 0, 0);
  }

  @Test
  void shouldRankByBaseFrequencyWhenCapacityIsTheSameEverywhere() {
    TestTree tree = fourCpus();
    for (int cpu = 0; cpu < 4; cpu++) {
      tree.cpuFile(cpu, "cpu_capacity", "1024");
      tree.cpuFile(cpu, "cpufreq/base_frequency", cpu == 3 ? "1400000" : "1900000");
    }

    CpuTopology t = TopologyReader.load(tree.root());

    assertThat(t.cpus()).extracting(CpuInfo::kind).containsExactly(1, 1, 1, 0);
    assertThat(t.cpu(3).coreType()).isEqualTo(CoreType.EFFICIENCY);
  }

  @Test
  void shouldReportUniformCoresWhenEveryCpuLooksAlike() {
    TestTree tree = fourCpus().file("sys/devices/cpu_core/cpus", "0-3");
    for (int cpu = 0; cpu < 4; cpu++) {
      tree.cpuFile(cpu, "cpufreq/base_frequency", "2400000");
    }

    CpuTopology t = TopologyReader.load(tree.root());

    assertThat(t.cpus()).allSatisfy(c -> assertThat(c.coreType()).isEqualTo(CoreType.UNIFORM));
    assertThat(t.cpus()).allSatisfy(c -> assertThat(c.kind()).isEqualTo(-1));
  }

  @Test
  void shouldTakeTheNodeFromLinksWhenNodesHaveNoCpuList() {
    TestTree tree =
        fourCpus()
            .dir(TestTree.NODE + "/node0/cpu0")
            .dir(TestTree.NODE + "/node0/cpu1")
            .dir(TestTree.NODE + "/node1/cpu2")
            .dir(TestTree.CPU + "/cpu3/node1")
            .file(TestTree.NODE + "/node0/distance", "10 20")
            .file(TestTree.NODE + "/node1/distance", "20 10 30");

    CpuTopology t = TopologyReader.load(tree.root());

    // nodeM/cpuN for CPUs 0-2, cpuN/nodeM for CPU 3: the kernel makes both, dumps may keep one
    assertThat(t.numaNodes()).containsEntry(0, CpuSet.range(0, 1));
    assertThat(t.numaNodes()).containsEntry(1, CpuSet.range(2, 3));
    assertThat(t.distance(0, 1)).isEqualTo(20);
    // node1's row has 3 entries for 2 nodes: unknown, not misread
    assertThat(t.distance(1, 0)).isEqualTo(-1);
  }

  @Test
  void shouldIgnoreMalformedFilesWhenReadingTopology() {
    TestTree tree =
        fourCpus()
            .file(TestTree.CPU + "/cpu0/topology/core_cpus_list", "zero")
            .file(TestTree.CPU + "/cpu0/topology/thread_siblings", "00000003")
            .file(TestTree.NODE + "/online", "0-1")
            .file(TestTree.NODE + "/node0/cpulist", "0-x")
            .file(TestTree.NODE + "/node0/distance", "10 far");

    CpuTopology t = TopologyReader.load(tree.root());

    assertThat(t.cpu(0).core()).isEqualTo(CpuSet.range(0, 1));
    assertThat(t.cpu(0).node()).isEqualTo(-1);
    assertThat(t.distance(0, 0)).isEqualTo(10);
    assertThat(t.distance(0, 1)).isEqualTo(-1);
  }

  /** Four single-thread cores in one package, online. */
  private TestTree fourCpus() {
    TestTree tree = TestTree.at(dir).file(TestTree.CPU + "/online", "0-3");
    for (int cpu = 0; cpu < 4; cpu++) {
      tree.cpu(cpu, 0, "" + cpu, "0-3");
    }
    return tree;
  }
}
