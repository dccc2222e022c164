package io.github.affinitykit.core.host;

import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.internal.SysFs;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads each online CPU's {@code /sys/devices/system/cpu/cpuN/topology} and {@code cache}. CPUs
 * that are offline are skipped: their directory is missing or holds stale data (the cpusets
 * fixture's offline CPU 4 still claims a package), and an online CPU without a topology directory
 * has nothing to say.
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

  private SysfsTopologyReader() {}

  /** Returns the online CPUs that have a topology directory, ascending; empty if none has. */
  static List<CpuInfo> read(SysFs fs, CpuSet online, NumaNodes numa) {
    List<CpuInfo> cpus = new ArrayList<>();
    // only CPUs with a directory: the online list is text and may name up to 2^20 CPUs
    online
        .intersect(CpuPresence.cpuDirectories(fs))
        .forEach(
            cpu -> {
              String dir = CpuPresence.CPU_DIR + "/cpu" + cpu;
              if (!fs.list(dir + "/topology").isEmpty()) {
                cpus.add(cpu(fs, cpu, dir, numa));
              }
            });
    return CoreKinds.apply(fs, cpus);
  }

  private static CpuInfo cpu(SysFs fs, int cpu, String dir, NumaNodes numa) {
    String topology = dir + "/topology";
    return new CpuInfo(
        cpu,
        fs.integer(topology + "/physical_package_id").orElse(-1),
        fs.integer(topology + "/die_id").orElse(-1),
        fs.integer(topology + "/cluster_id").orElse(-1),
        fs.integer(topology + "/core_id").orElse(-1),
        fs.firstCpus(topology, CORE_FILES).orElse(CpuSet.of(cpu)),
        fs.firstCpus(topology, PACKAGE_FILES).orElse(CpuSet.empty()),
        numa.nodeOf(cpu),
        cache(fs, dir, 2),
        cache(fs, dir, 3),
        CoreType.UNIFORM,
        -1);
  }

  /** The CPUs sharing the unified or data cache of that level, or empty if there is none. */
  private static CpuSet cache(SysFs fs, String cpuDir, int level) {
    String caches = cpuDir + "/cache";
    for (String index : fs.list(caches)) {
      String dir = caches + "/" + index;
      if (SysFs.index(index, "index") < 0
          || fs.integer(dir + "/level").orElse(-1) != level
          || "Instruction".equals(fs.read(dir + "/type").orElse(""))) {
        continue;
      }
      return fs.firstCpus(dir, CACHE_FILES).orElse(CpuSet.empty());
    }
    return CpuSet.empty();
  }
}
