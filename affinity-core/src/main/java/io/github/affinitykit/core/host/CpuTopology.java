package io.github.affinitykit.core.host;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.SysFs;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.stream.Collectors;

/**
 * The host's CPU topology: packages, physical cores and their SMT siblings, L2 and L3 sharing
 * groups, NUMA nodes and distances, hybrid core kinds, and which CPUs are possible, present, online
 * and offline. Read from sysfs ({@code /sys/devices/system/cpu}, {@code /sys/devices/system/node});
 * {@code /proc/cpuinfo} only when sysfs has no CPU topology.
 *
 * <p>Sparse CPU ids and offline CPUs are normal: {@link #known()} holds the online CPUs the kernel
 * describes, and only they have a {@link CpuInfo}. A core is identified by its CPU set ({@code
 * core_cpus_list}), never by {@code core_id}, which is per package and sparse. Masks are sized from
 * {@link #possibleCount()}, not from the online count.
 *
 * <p>Thread safety: immutable; safe to share between threads. {@link #load(Path)} reads files on
 * the calling thread and nothing is read afterwards: load again to see CPU hotplug.
 */
public final class CpuTopology {
  private static final String SYSFS = "sysfs";
  private static final String CPUINFO = "/proc/cpuinfo";

  private final CpuPresence presence;
  private final CpuSet known;
  private final List<CpuInfo> cpus;
  private final Map<Integer, CpuInfo> byCpu;
  private final List<CpuSet> packages;
  private final List<CpuSet> cores;
  private final List<CpuSet> l3Groups;
  private final List<CpuSet> l2Groups;
  private final SortedMap<Integer, CpuSet> numaNodes;
  private final NumaNodes numa;
  private final String source;

  private CpuTopology(CpuPresence presence, List<CpuInfo> cpus, NumaNodes numa, String source) {
    this.presence = presence;
    this.cpus = List.copyOf(cpus);
    this.numa = numa;
    this.source = source;
    this.byCpu = this.cpus.stream().collect(Collectors.toUnmodifiableMap(CpuInfo::cpu, c -> c));
    this.known = CpuSet.of(this.cpus.stream().mapToInt(CpuInfo::cpu).toArray());
    this.packages = TopologyPartitions.packages(this.cpus, known);
    this.cores = TopologyPartitions.distinct(this.cpus, CpuInfo::core);
    this.l3Groups = TopologyPartitions.distinct(this.cpus, CpuInfo::l3);
    this.l2Groups = TopologyPartitions.distinct(this.cpus, CpuInfo::l2);
    this.numaNodes = TopologyPartitions.numaNodes(this.cpus);
  }

  /**
   * Reads the topology of the Linux system whose root directory is {@code root}: {@code /} for this
   * host, an unpacked sysfs dump in tests. Blocks on file reads.
   *
   * <p>Thread safety: may be called from any thread; each call reads afresh.
   *
   * @param root the directory holding the {@code sys/} and {@code proc/} trees; not null
   * @return the topology read now, with at least one known CPU
   * @throws IllegalStateException if neither sysfs nor {@code /proc/cpuinfo} under the root lists a
   *     CPU (not a Linux root)
   */
  public static CpuTopology load(Path root) {
    return load(new SysFs(Objects.requireNonNull(root, "root")));
  }

  /** Reads the topology of the tree {@code fs} reads, as {@link #load(Path)}. */
  static CpuTopology load(SysFs fs) {
    Path root = fs.root();
    CpuPresence presence = CpuPresence.read(fs);
    NumaNodes numa = NumaNodes.read(fs);
    List<CpuInfo> cpus = SysfsTopologyReader.read(fs, presence.online(), numa);
    if (!cpus.isEmpty()) {
      return new CpuTopology(presence, TopologyPartitions.normalize(cpus), numa, SYSFS);
    }
    String cpuinfo = fs.read(CPUINFO).orElse("");
    cpus = CpuinfoTopologyReader.read(cpuinfo, presence.online(), numa);
    if (cpus.isEmpty()) {
      throw new IllegalStateException(
          "root: "
              + root
              + " (expected: a Linux root where sys/devices/system/cpu or proc/cpuinfo lists"
              + " an online CPU)");
    }
    CpuSet processors = CpuSet.of(cpus.stream().mapToInt(CpuInfo::cpu).toArray());
    return new CpuTopology(
        presence.withOnline(processors), TopologyPartitions.normalize(cpus), numa, CPUINFO);
  }

  /**
   * Reads this host's topology: {@code load(Path.of("/"))}.
   *
   * <p>Thread safety: may be called from any thread; each call reads afresh.
   *
   * @return this host's topology, read now, with at least one known CPU
   * @throws IllegalStateException if this host shows no CPU in sysfs nor in {@code /proc/cpuinfo}
   */
  public static CpuTopology load() {
    return load(Path.of("/"));
  }

  /**
   * Returns the CPUs that may ever be online ({@code possible}). Thread safety: immutable.
   *
   * @return the {@code possible} list, or the {@code cpuN} directories and online CPUs without it
   */
  public CpuSet possible() {
    return presence.possible();
  }

  /**
   * Returns the CPUs physically present ({@code present}). Thread safety: immutable.
   *
   * @return the {@code present} list, or the {@code cpuN} directories and online CPUs without it
   */
  public CpuSet present() {
    return presence.present();
  }

  /**
   * Returns the CPUs online when loaded ({@code online}). Thread safety: immutable.
   *
   * @return the {@code online} list; if it is missing, the {@code cpuN} directories not marked
   *     offline, or the processors of {@code /proc/cpuinfo}
   */
  public CpuSet online() {
    return presence.online();
  }

  /**
   * Returns the CPUs possible but not online ({@code offline}). Thread safety: immutable.
   *
   * @return the {@code offline} list, or possible minus online if it is missing; often empty
   */
  public CpuSet offline() {
    return presence.offline();
  }

  /**
   * Returns the number of bits a CPU mask of this host needs: the highest CPU id any source names
   * ({@code possible}, {@code present}, {@code online}, the {@code cpuN} directories) plus one, so
   * that a missing or short {@code possible} list never narrows the mask. Thread safety: immutable.
   *
   * @return the mask width in bits, 1 or more: the highest id in {@code possible}, {@code present},
   *     {@code online} or {@link #known()}, plus one
   */
  public int possibleCount() {
    return presence.maskBits(known);
  }

  /**
   * Returns the CPUs that have a {@link CpuInfo}: the online CPUs whose topology the kernel shows.
   * Never empty. Thread safety: immutable.
   *
   * @return the CPUs that have a {@link CpuInfo}, at least one
   */
  public CpuSet known() {
    return known;
  }

  /**
   * Returns the description of a known CPU. Thread safety: immutable.
   *
   * @param cpu the logical CPU id; must be in {@link #known()}
   * @return that CPU's description, never null
   * @throws IllegalArgumentException if {@code cpu} is not in {@link #known()}
   */
  public CpuInfo cpu(int cpu) {
    CpuInfo info = byCpu.get(cpu);
    if (info == null) {
      throw new IllegalArgumentException("cpu: " + cpu + " (expected: one of " + known + ")");
    }
    return info;
  }

  /**
   * Returns every known CPU, ascending by id; unmodifiable. Thread safety: immutable.
   *
   * @return one {@link CpuInfo} per CPU of {@link #known()}, never empty
   */
  public List<CpuInfo> cpus() {
    return cpus;
  }

  /**
   * Returns each package's known CPUs, ordered by first CPU; CPUs of unknown package (Arm's {@code
   * /proc/cpuinfo}) form one group. Thread safety: immutable.
   *
   * @return disjoint non-empty groups that together hold every known CPU; unmodifiable
   */
  public List<CpuSet> packages() {
    return packages;
  }

  /**
   * Returns each physical core's known CPUs, ordered by first CPU. Thread safety: immutable.
   *
   * @return disjoint non-empty groups that together hold every known CPU; unmodifiable
   */
  public List<CpuSet> cores() {
    return cores;
  }

  /**
   * Returns the distinct groups of CPUs sharing an L3 cache, ordered by first CPU; empty if no L3
   * is known. Thread safety: immutable.
   *
   * @return disjoint non-empty groups; a CPU with no known L3 is in none; unmodifiable
   */
  public List<CpuSet> l3Groups() {
    return l3Groups;
  }

  /**
   * Returns the distinct groups of CPUs sharing an L2 cache, ordered by first CPU; empty if no L2
   * is known. Thread safety: immutable.
   *
   * @return disjoint non-empty groups; a CPU with no known L2 is in none; unmodifiable
   */
  public List<CpuSet> l2Groups() {
    return l2Groups;
  }

  /**
   * Returns each NUMA node's known CPUs by node id, ascending; nodes without known CPUs (memory
   * only, or all CPUs offline) are omitted, and the map is empty if no node is known. Unmodifiable.
   * Thread safety: immutable.
   *
   * @return node id to that node's known CPUs (never an empty set), possibly an empty map
   */
  public SortedMap<Integer, CpuSet> numaNodes() {
    return numaNodes;
  }

  /**
   * Returns the kernel's relative distance between two NUMA nodes ({@code nodeN/distance}: 10 is
   * local), or -1 if unknown. Thread safety: immutable.
   *
   * @param fromNode the NUMA node id whose {@code distance} row is read
   * @param toNode the NUMA node id of the column in that row
   * @return the kernel's value; -1 if a node, its row or the entry is unknown or not a number
   */
  public int distance(int fromNode, int toNode) {
    return numa.distance(fromNode, toNode);
  }

  /**
   * Returns whether some core has more than one known CPU. Thread safety: immutable.
   *
   * @return true if SMT siblings are online; false if every core shows a single CPU
   */
  public boolean smt() {
    return cpus.stream().anyMatch(CpuInfo::hasSmtSibling);
  }

  /**
   * Returns where the topology came from: {@code "sysfs"} or {@code "/proc/cpuinfo"}. Thread
   * safety: immutable.
   *
   * @return {@code "sysfs"} or {@code "/proc/cpuinfo"}, never anything else
   */
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
