package io.github.affinitykit.core.cpu;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.stream.Collectors;

/**
 * The host's CPU topology: packages, cores and their SMT siblings, L2 and L3 groups, NUMA nodes and
 * distances, hybrid core kinds, and which CPUs are possible, present, online and offline. Sparse
 * ids and offline CPUs are normal: only the CPUs of {@link #known()} have a {@link CpuInfo}. A core
 * is identified by its CPU set, never by {@code core_id}. Size masks from {@link #possibleCount()}.
 *
 * <p>Thread safety: immutable; safe to share between threads. Probe again to see CPU hotplug.
 */
public final class CpuTopology {
  private final CpuSet possible;
  private final CpuSet present;
  private final CpuSet online;
  private final CpuSet offline;
  private final CpuSet known;
  private final List<CpuInfo> cpus;
  private final Map<Integer, CpuInfo> byCpu;
  private final List<CpuSet> packages;
  private final List<CpuSet> cores;
  private final List<CpuSet> l3Groups;
  private final List<CpuSet> l2Groups;
  private final SortedMap<Integer, CpuSet> numaNodes;
  private final Map<Integer, Map<Integer, Integer>> distances;
  private final String source;

  /**
   * Makes a topology of the CPUs the kernel describes. Each CPU's group sets (core, package, L2,
   * L3) are made a partition of the known CPUs first: sets that disagree are merged, CPUs not
   * described dropped.
   *
   * @param source where the description came from: {@code "sysfs"} or {@code "/proc/cpuinfo"}
   * @param cpus one description per known CPU, in any order (the first of a repeated id wins); at
   *     least one
   * @param possible the CPUs that may ever be online (the kernel's {@code possible})
   * @param present the CPUs physically present ({@code present})
   * @param online the CPUs online ({@code online})
   * @param offline the CPUs possible but not online ({@code offline})
   * @param distances the NUMA distances by node and node; a missing entry is unknown
   * @throws IllegalArgumentException if {@code cpus} is empty
   * @throws NullPointerException if an argument is null
   */
  public CpuTopology(
      String source,
      List<CpuInfo> cpus,
      CpuSet possible,
      CpuSet present,
      CpuSet online,
      CpuSet offline,
      Map<Integer, ? extends Map<Integer, Integer>> distances) {
    this.source = Objects.requireNonNull(source, "source");
    this.cpus = List.copyOf(TopologyPartitions.normalize(cpus));
    if (this.cpus.isEmpty()) {
      throw new IllegalArgumentException("cpus: [] (expected: at least one CPU)");
    }
    this.possible = Objects.requireNonNull(possible, "possible");
    this.present = Objects.requireNonNull(present, "present");
    this.online = Objects.requireNonNull(online, "online");
    this.offline = Objects.requireNonNull(offline, "offline");
    Map<Integer, Map<Integer, Integer>> rows = new HashMap<>();
    distances.forEach((from, row) -> rows.put(from, Map.copyOf(row)));
    this.distances = Map.copyOf(rows);
    this.byCpu = this.cpus.stream().collect(Collectors.toUnmodifiableMap(CpuInfo::cpu, c -> c));
    this.known = CpuSet.of(this.cpus.stream().mapToInt(CpuInfo::cpu).toArray());
    this.packages = TopologyPartitions.packages(this.cpus, known);
    this.cores = TopologyPartitions.distinct(this.cpus, CpuInfo::core);
    this.l3Groups = TopologyPartitions.distinct(this.cpus, CpuInfo::l3);
    this.l2Groups = TopologyPartitions.distinct(this.cpus, CpuInfo::l2);
    this.numaNodes = TopologyPartitions.numaNodes(this.cpus);
  }

  /** {@return {@code possible}, else the {@code cpuN} directories and online CPUs} */
  public CpuSet possible() {
    return possible;
  }

  /** {@return {@code present}, else the {@code cpuN} directories and online CPUs} */
  public CpuSet present() {
    return present;
  }

  /**
   * {@return {@code online}, else the {@code cpuN} directories not marked offline, or the
   * processors of {@code /proc/cpuinfo}}
   */
  public CpuSet online() {
    return online;
  }

  /** {@return the {@code offline} list, or possible minus online if it is missing; often empty} */
  public CpuSet offline() {
    return offline;
  }

  /** {@return the bits a CPU mask of this host needs: the highest CPU id any source names + 1} */
  public int possibleCount() {
    return Math.max(
            Math.max(possible.last(), present.last()), Math.max(online.last(), known.last()))
        + 1;
  }

  /**
   * {@return the online CPUs whose topology the kernel shows (with a {@link CpuInfo}); not empty}
   */
  public CpuSet known() {
    return known;
  }

  /**
   * {@return the description of a known CPU}
   *
   * @param cpu the logical CPU id; must be in {@link #known()}
   * @throws IllegalArgumentException if {@code cpu} is not in {@link #known()}
   */
  public CpuInfo cpu(int cpu) {
    CpuInfo info = byCpu.get(cpu);
    if (info == null) {
      throw new IllegalArgumentException("cpu: " + cpu + " (expected: one of " + known + ")");
    }
    return info;
  }

  /** {@return one {@link CpuInfo} per CPU of {@link #known()}, never empty} */
  public List<CpuInfo> cpus() {
    return cpus;
  }

  /**
   * {@return each package's known CPUs, ordered by first CPU; those of unknown package form one}
   */
  public List<CpuSet> packages() {
    return packages;
  }

  /** {@return each physical core's known CPUs, ordered by first CPU; unmodifiable} */
  public List<CpuSet> cores() {
    return cores;
  }

  /** {@return the disjoint groups of CPUs sharing an L3 cache, by first CPU; maybe none} */
  public List<CpuSet> l3Groups() {
    return l3Groups;
  }

  /** {@return the disjoint groups of CPUs sharing an L2 cache, by first CPU; maybe none} */
  public List<CpuSet> l2Groups() {
    return l2Groups;
  }

  /** {@return each NUMA node's known CPUs by node id; nodes without known CPUs are left out} */
  public SortedMap<Integer, CpuSet> numaNodes() {
    return numaNodes;
  }

  /**
   * {@return the kernel's NUMA distance ({@code nodeN/distance}: 10 is local), or -1 if unknown}
   *
   * @param fromNode the NUMA node id whose {@code distance} row is read
   * @param toNode the NUMA node id of the column in that row
   */
  public int distance(int fromNode, int toNode) {
    return distances.getOrDefault(fromNode, Map.of()).getOrDefault(toNode, -1);
  }

  /** {@return true if SMT siblings are online; false if every core shows a single CPU} */
  public boolean smt() {
    return cpus.stream().anyMatch(CpuInfo::hasSmtSibling);
  }

  /** {@return where the topology came from: {@code "sysfs"} or {@code "/proc/cpuinfo"}} */
  public String source() {
    return source;
  }

  /** Returns a one-line summary: source, counts of packages, cores, CPUs and NUMA nodes. */
  @Override
  public String toString() {
    return String.format(
        "CpuTopology[%s: %d packages, %d cores, %d cpus (%s), %d numa nodes]",
        source, packages.size(), cores.size(), known.size(), known, numaNodes.size());
  }
}
