package io.github.affinitykit.core.host;

import io.github.affinitykit.core.cpu.CoreType;
import io.github.affinitykit.core.cpu.CpuInfo;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.SysFs;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * Reads each online CPU's {@code /sys/devices/system/cpu/cpuN/topology} and {@code cache}; offline
 * CPUs are skipped, as their directory may hold stale data.
 *
 * <p>Thread safety: stateless.
 */
final class SysfsTopologyReader {
  private static final String[] CORE_FILES = {
    "core_cpus_list", "core_cpus", "thread_siblings_list", "thread_siblings"
  };
  private static final String[] PACKAGE_FILES = {
    "package_cpus_list", "package_cpus", "core_siblings_list", "core_siblings"
  };
  private static final String[] CACHE_FILES = {"shared_cpu_list", "shared_cpu_map"};

  /** More cache indexes than any CPU has (x86 and Arm show 3 to 5): a bound, not a limit. */
  private static final int MAX_CACHES = 32;

  private SysfsTopologyReader() {}

  /** Returns the online CPUs that have a topology directory, ascending; empty if none has. */
  static List<CpuInfo> read(SysFs fs, CpuSet online, NumaNodes numa) {
    List<CpuInfo> cpus = new ArrayList<>();
    // only CPUs with a directory: the online list is text and may name up to 2^20 CPUs
    online
        .intersect(TopologyReader.cpuDirectories(fs))
        .forEach(
            cpu -> {
              String dir = TopologyReader.CPU_DIR + "/cpu" + cpu;
              if (fs.exists(dir + "/topology")) {
                cpus.add(cpu(fs, cpu, dir, numa));
              }
            });
    return CoreKinds.apply(fs, cpus);
  }

  private static CpuInfo cpu(SysFs fs, int cpu, String dir, NumaNodes numa) {
    String topology = dir + "/topology";
    CpuSet[] caches = caches(fs, dir);
    return new CpuInfo(
        cpu,
        fs.integer(topology + "/physical_package_id").orElse(-1),
        fs.integer(topology + "/die_id").orElse(-1),
        fs.integer(topology + "/cluster_id").orElse(-1),
        fs.integer(topology + "/core_id").orElse(-1),
        fs.firstCpus(topology, CORE_FILES).orElse(CpuSet.of(cpu)),
        fs.firstCpus(topology, PACKAGE_FILES).orElse(CpuSet.empty()),
        numa.nodeOf(cpu),
        caches[2],
        caches[3],
        CoreType.UNIFORM,
        -1);
  }

  /**
   * The CPUs sharing each level's unified or data cache, by level (2 and 3): the first {@code
   * indexN} of that level that is not an instruction cache. The kernel numbers caches from {@code
   * index0} without a gap, so they are read until one is missing, as hwloc does.
   */
  private static CpuSet[] caches(SysFs fs, String cpuDir) {
    CpuSet[] byLevel = {CpuSet.empty(), CpuSet.empty(), CpuSet.empty(), CpuSet.empty()};
    boolean[] decided = new boolean[byLevel.length];
    for (int i = 0; i < MAX_CACHES; i++) {
      String dir = cpuDir + "/cache/index" + i;
      OptionalInt level = fs.integer(dir + "/level");
      if (level.isEmpty() && !fs.exists(dir)) {
        break;
      }
      int l = level.orElse(-1);
      if (l < 2 || l > 3 || decided[l] || "Instruction".equals(fs.read(dir + "/type").orElse(""))) {
        continue;
      }
      decided[l] = true;
      byLevel[l] = fs.firstCpus(dir, CACHE_FILES).orElse(CpuSet.empty());
    }
    return byLevel;
  }
}
