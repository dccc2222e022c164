package io.github.affinitykit.core.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.TestTree;
import io.github.affinitykit.core.cpu.CpuInfo;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuTopology;
import io.github.affinitykit.core.testkit.Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code /proc/cpuinfo} as the fallback when sysfs shows no CPU topology. */
class CpuTopologyFallbackTest {
  @TempDir Path dir;

  @Test
  void shouldReadPackagesAndCoresFromCpuinfoWhenSysfsIsAbsent() {
    StringBuilder cpuinfo = new StringBuilder();
    // 2 packages x 2 cores x 2 threads, numbered like Intel: thread 2 of every core after thread 1.
    int[][] packageAndCore = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {0, 0}, {0, 1}, {1, 0}, {1, 1}};
    for (int cpu = 0; cpu < 8; cpu++) {
      cpuinfo
          .append("processor\t: ")
          .append(cpu)
          .append("\nvendor_id\t: GenuineIntel\nphysical id\t: ")
          .append(packageAndCore[cpu][0])
          .append("\nsiblings\t: 4\ncore id\t\t: ")
          .append(packageAndCore[cpu][1])
          .append("\ncpu cores\t: 2\nflags\t\t: fpu sse ht\n\n");
    }
    TestTree tree = TestTree.at(dir).file("proc/cpuinfo", cpuinfo.toString());

    CpuTopology t = TopologyReader.load(tree.root());

    assertThat(t.source()).isEqualTo("/proc/cpuinfo");
    assertThat(t.known()).isEqualTo(CpuSet.range(0, 7));
    assertThat(t.possible()).isEqualTo(CpuSet.range(0, 7));
    assertThat(t.online()).isEqualTo(CpuSet.range(0, 7));
    assertThat(t.offline()).isEqualTo(CpuSet.empty());
    assertThat(t.possibleCount()).isEqualTo(8);
    assertThat(t.packages()).containsExactly(CpuSet.parse("0-1,4-5"), CpuSet.parse("2-3,6-7"));
    assertThat(t.cores())
        .containsExactly(CpuSet.of(0, 4), CpuSet.of(1, 5), CpuSet.of(2, 6), CpuSet.of(3, 7));
    assertThat(t.smt()).isTrue();
    assertThat(t.numaNodes()).isEmpty();
    assertThat(t.cpus()).allSatisfy(c -> assertThat(c.node()).isEqualTo(-1));
    assertThat(t.l3Groups()).isEmpty();
    assertThat(t.cpu(5).coreId()).isEqualTo(1);
  }

  @Test
  void shouldPutArmCpusInOneUnknownPackageWhenCpuinfoHasNoSocketFields() throws IOException {
    Path proc = Files.createDirectories(dir.resolve("proc"));
    Files.copy(Fixtures.root("2arm-2c").resolve("proc/cpuinfo"), proc.resolve("cpuinfo"));

    CpuTopology t = TopologyReader.load(dir);

    assertThat(t.source()).isEqualTo("/proc/cpuinfo");
    // "Processor : ARMv7 Processor rev 1 (v7l)" is the model line, not a CPU.
    assertThat(t.known()).isEqualTo(CpuSet.range(0, 1));
    assertThat(t.cpu(1).packageId()).isEqualTo(-1);
    assertThat(t.cpu(1).packageCpus()).isEqualTo(CpuSet.empty());
    assertThat(t.packages()).containsExactly(CpuSet.range(0, 1));
    assertThat(t.cores()).containsExactly(CpuSet.of(0), CpuSet.of(1));
    assertThat(t.smt()).isFalse();
  }

  @Test
  void shouldMatchSysfsWhenE5CpuinfoIsReadWithSysPointedAway() throws IOException {
    // A root whose proc/ is the E5 fixture's and that has no sys/ at all.
    Path link =
        Files.createSymbolicLink(dir.resolve("proc"), Fixtures.root(Fixtures.E5).resolve("proc"));

    CpuTopology fallback = TopologyReader.load(dir);
    Files.delete(link); // the link only: the fixture stays
    CpuTopology sysfs = TopologyReader.load(Fixtures.root(Fixtures.E5));

    assertThat(fallback.source()).isEqualTo("/proc/cpuinfo");
    assertThat(fallback.known()).isEqualTo(sysfs.known());
    assertThat(fallback.packages()).isEqualTo(sysfs.packages());
    assertThat(fallback.cores()).isEqualTo(sysfs.cores());
    for (CpuInfo c : fallback.cpus()) {
      CpuInfo s = sysfs.cpu(c.cpu());
      assertThat(c.packageId()).isEqualTo(s.packageId());
      assertThat(c.core()).isEqualTo(s.core());
      assertThat(c.packageCpus()).isEqualTo(s.packageCpus());
      assertThat(c.node()).isEqualTo(-1);
    }
  }

  @Test
  void shouldKeepOnlyOnlineCpusWhenSysfsHasPopulationButNoTopology() {
    TestTree tree =
        TestTree.at(dir)
            .file(TestTree.CPU + "/possible", "0-3")
            .file(TestTree.CPU + "/online", "0-1")
            .file(TestTree.NODE + "/node0/cpulist", "0-3")
            .file("proc/cpuinfo", "processor\t: 0\n\nprocessor\t: 1\n\nprocessor\t: 2\n");

    CpuTopology t = TopologyReader.load(tree.root());

    assertThat(t.source()).isEqualTo("/proc/cpuinfo");
    assertThat(t.known()).isEqualTo(CpuSet.range(0, 1));
    assertThat(t.offline()).isEqualTo(CpuSet.range(2, 3));
    assertThat(t.possibleCount()).isEqualTo(4);
    // sysfs still knows the NUMA node
    assertThat(t.numaNodes()).containsEntry(0, CpuSet.range(0, 1));
  }

  @Test
  void shouldFailWithTheRootWhenNeitherSysfsNorCpuinfoListsACpu() {
    assertThatThrownBy(() -> TopologyReader.load(dir))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "root: "
                + dir
                + " (expected: a Linux root where sys/devices/system/cpu or proc/cpuinfo lists an"
                + " online CPU)");
  }
}
