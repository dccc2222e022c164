package io.github.affinitykit.core.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cpu.CoreType;
import io.github.affinitykit.core.cpu.CpuInfo;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuTopology;
import io.github.affinitykit.core.testkit.Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Compares our model of every hwloc test tree with hwloc's own answer ({@code lstopo} console
 * output shipped with the tree): PUs, packages, cores, L2/L3 groups, NUMA nodes and distances, CPU
 * kinds. Where hwloc's display legitimately differs from the model, the difference is spelled out
 * per tree below and asserted, never skipped.
 */
class CpuTopologyHwlocTest {
  /** hwloc runs inside a cgroup cpuset here (see {@link #hwlocVisibleCpus}). */
  private static final String CPUSETS = "16amd64-8n2c-cpusets";

  private static final String BUGGY_NUMA = "8em64t-2s2ca2c-buggynuma";
  private static final String ARM_NO_NUMA = "2arm-2c";

  static List<String> hwlocTrees() {
    return Fixtures.HWLOC;
  }

  @ParameterizedTest
  @MethodSource("hwlocTrees")
  void shouldMatchHwlocPusPackagesCoresAndCachesWhenLoadingHwlocTree(String name)
      throws IOException {
    CpuTopology t = TopologyReader.load(Fixtures.root(name));
    HwlocConsole h = HwlocConsole.parse(Fixtures.console(name));
    CpuSet shown = t.known().intersect(hwlocVisibleCpus(name));

    assertThat(t.source()).isEqualTo("sysfs");
    assertThat(h.pus()).as("PUs").isEqualTo(ids(shown));
    // hwloc may keep a Package without PUs for its memory (cpusets tree): see the test below.
    assertThat(h.countWithPus("Package"))
        .as("packages")
        .isEqualTo(t.packages().stream().filter(shown::intersects).count());
    assertThat(h.count("Core"))
        .as("cores")
        .isEqualTo(t.cores().stream().filter(shown::intersects).count());
    for (int pu : h.pus()) {
      CpuInfo c = t.cpu(pu);
      assertThat(c.packageId()).as("package of PU %d", pu).isEqualTo(h.packageOf(pu));
      assertThat(ids(c.core().intersect(shown)))
          .as("core of PU %d", pu)
          .isEqualTo(h.groupOf(pu, "Core"));
      assertThat(ids(c.l2().intersect(shown)))
          .as("L2 of PU %d", pu)
          .isEqualTo(h.groupOf(pu, "L2Cache"));
      assertThat(ids(c.l3().intersect(shown)))
          .as("L3 of PU %d", pu)
          .isEqualTo(h.groupOf(pu, "L3Cache"));
    }
  }

  @ParameterizedTest
  @MethodSource("hwlocTrees")
  void shouldMatchHwlocNumaNodesAndDistancesWhenLoadingHwlocTree(String name) throws IOException {
    CpuTopology t = TopologyReader.load(Fixtures.root(name));
    HwlocConsole h = HwlocConsole.parse(Fixtures.console(name));
    CpuSet mems = hwlocVisibleNodes(name);
    for (int pu : h.pus()) {
      int node = t.cpu(pu).node();
      int expected;
      switch (name) {
        case BUGGY_NUMA:
          // Every nodeN/cpulist of this tree lists all 8 CPUs. hwloc keeps the first node and drops
          // the 7 whose cpuset overlaps it, so it shows one node holding every PU. We follow each
          // CPU's own link (node/nodeN/cpuN, the kernel's cpu_to_node), where the kernel places
          // memory a thread on that CPU allocates: CPU n is on node n.
          assertThat(node).as("our node of PU %d", pu).isEqualTo(pu);
          expected = 0;
          break;
        case ARM_NO_NUMA:
          // No sys/devices/system/node in this tree: hwloc invents NUMANode P#0 for the memory of
          // the machine; the kernel shows no node, so we say -1 (unknown).
          assertThat(node).as("our node of PU %d", pu).isEqualTo(-1);
          expected = 0;
          break;
        default:
          // CPUSETS: hwloc hides the nodes outside the cgroup's cpuset.mems, and shows no node
          // above the PUs of those nodes; elsewhere mems is every node and nothing is hidden.
          expected = mems.contains(node) ? node : -1;
          break;
      }
      assertThat(h.nodeOf(pu)).as("hwloc's node of PU %d, ours %d", pu, node).isEqualTo(expected);
    }
    for (Map.Entry<List<Integer>, Integer> e : h.latency().entrySet()) {
      int from = e.getKey().get(0);
      int to = e.getKey().get(1);
      assertThat(t.distance(from, to)).as("distance %d -> %d", from, to).isEqualTo(e.getValue());
    }
  }

  @ParameterizedTest
  @MethodSource("hwlocTrees")
  void shouldMatchHwlocCpuKindsWhenLoadingHwlocTree(String name) {
    CpuTopology t = TopologyReader.load(Fixtures.root(name));
    HwlocConsole h = HwlocConsole.parse(Fixtures.console(name));
    if (h.kinds() < 2) {
      // hwloc lists a single kind when it finds frequency or capacity data that is the same on
      // every PU (or, in 2arm-2c, that only CPU 0 has a cpufreq directory): no hybrid part.
      assertThat(t.cpus()).allSatisfy(c -> assertThat(c.kind()).isEqualTo(-1));
      assertThat(t.cpus()).allSatisfy(c -> assertThat(c.coreType()).isEqualTo(CoreType.UNIFORM));
      return;
    }
    for (int pu : h.pus()) {
      CpuInfo c = t.cpu(pu);
      assertThat(c.kind()).as("kind of PU %d", pu).isEqualTo(h.kindOf(pu));
      assertThat(c.coreType())
          .as("core type of PU %d", pu)
          .isEqualTo(h.kindOf(pu) == h.kinds() - 1 ? CoreType.PERFORMANCE : CoreType.EFFICIENCY);
    }
  }

  @Test
  void shouldShowWhatHwlocHidesWhenTheCgroupRestrictsIt() throws IOException {
    CpuTopology t = TopologyReader.load(Fixtures.root(CPUSETS));
    HwlocConsole h = HwlocConsole.parse(Fixtures.console(CPUSETS));

    // CpuTopology is the host; the cgroup's restriction belongs to HostCpus. hwloc shows the
    // allowed CPUs only: the online CPUs 7-11 are ours and not hwloc's.
    assertThat(t.known().minus(hwlocVisibleCpus(CPUSETS))).isEqualTo(CpuSet.range(7, 11));
    assertThat(t.packages()).hasSize(8);
    // hwloc keeps Package P#4 (CPUs 8-9, both disallowed) because its NUMA node 4 is allowed
    // memory: 7 Package objects, 6 with PUs.
    assertThat(h.count("Package")).isEqualTo(7);
    assertThat(h.countWithPus("Package")).isEqualTo(6);
    assertThat(t.numaNodes().keySet()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    assertThat(h.count("NUMANode")).isEqualTo(4);
  }

  /**
   * The CPUs hwloc shows: all, except in the cpusets tree, where lstopo ran in the cgroup cpuset
   * {@code /dummy} (the tree's {@code proc/self/cpuset}) whose {@code cpus} it honours.
   */
  private static CpuSet hwlocVisibleCpus(String name) throws IOException {
    return cgroupList(name, "cpus");
  }

  /** The NUMA nodes hwloc shows: all, except in the cpusets tree (that cgroup's {@code mems}). */
  private static CpuSet hwlocVisibleNodes(String name) throws IOException {
    return cgroupList(name, "mems");
  }

  private static CpuSet cgroupList(String name, String file) throws IOException {
    if (!name.equals(CPUSETS)) {
      return CpuSet.range(0, CpuSet.MAX_CPUS - 1);
    }
    Path root = Fixtures.root(name);
    String cgroup = Files.readString(root.resolve("proc/self/cpuset")).trim();
    return CpuSet.parse(Files.readString(root.resolve("dev/cpuset" + cgroup + "/" + file)).trim());
  }

  private static Set<Integer> ids(CpuSet set) {
    return set.stream().boxed().collect(Collectors.toCollection(TreeSet::new));
  }
}
