package io.github.affinitykit.core.host;

import io.github.affinitykit.core.cpu.CoreType;
import io.github.affinitykit.core.cpu.CpuInfo;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.KernelLimits;
import io.github.affinitykit.core.internal.SysFs;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The fallback when sysfs has no CPU topology: {@code /proc/cpuinfo}, online CPUs only. A core is
 * the CPUs with the same {@code physical id} and {@code core id} (x86); without a {@code core id}
 * each CPU is its own core, and without a {@code physical id} (Arm) the package is unknown.
 *
 * <p>Thread safety: stateless.
 */
final class CpuinfoTopologyReader {
  private CpuinfoTopologyReader() {}

  /** One {@code processor} block's fields; -1 when absent. */
  private record Entry(int cpu, int packageId, int coreId) {}

  /**
   * Returns the CPUs of the text that are in {@code online} (all of them if {@code online} is
   * empty), ascending, with the NUMA nodes that sysfs may still show.
   */
  static List<CpuInfo> read(String cpuinfo, CpuSet online, NumaNodes numa) {
    List<Entry> entries = new ArrayList<>();
    for (Entry e : parse(cpuinfo)) {
      if (online.isEmpty() || online.contains(e.cpu())) {
        entries.add(e);
      }
    }
    Map<Integer, BitSet> packages = new HashMap<>();
    Map<Long, BitSet> cores = new HashMap<>();
    for (Entry e : entries) {
      if (e.packageId() >= 0) {
        packages.computeIfAbsent(e.packageId(), k -> new BitSet()).set(e.cpu());
      }
      if (e.coreId() >= 0) {
        cores.computeIfAbsent(coreKey(e), k -> new BitSet()).set(e.cpu());
      }
    }
    List<CpuInfo> cpus = new ArrayList<>();
    for (Entry e : entries) {
      BitSet pkg = packages.get(e.packageId());
      BitSet core = e.coreId() >= 0 ? cores.get(coreKey(e)) : null;
      cpus.add(
          new CpuInfo(
              e.cpu(),
              e.packageId(),
              -1,
              -1,
              e.coreId(),
              core == null ? CpuSet.of(e.cpu()) : CpuSet.of(core),
              pkg == null ? CpuSet.empty() : CpuSet.of(pkg),
              numa.nodeOf(e.cpu()),
              CpuSet.empty(),
              CpuSet.empty(),
              CoreType.UNIFORM,
              -1));
    }
    cpus.sort((a, b) -> Integer.compare(a.cpu(), b.cpu()));
    return cpus;
  }

  private static long coreKey(Entry e) {
    return ((long) e.packageId() << 32) ^ (e.coreId() & 0xFFFF_FFFFL);
  }

  private static List<Entry> parse(String cpuinfo) {
    List<Entry> entries = new ArrayList<>();
    int cpu = -1;
    int packageId = -1;
    int coreId = -1;
    for (String line : cpuinfo.split("\n", -1)) {
      int colon = line.indexOf(':');
      if (colon < 0) {
        continue;
      }
      String key = line.substring(0, colon).trim();
      int value = SysFs.index(line.substring(colon + 1).trim(), "");
      if ("processor".equals(key) && value >= 0 && value < KernelLimits.CPUS) {
        if (cpu >= 0) {
          entries.add(new Entry(cpu, packageId, coreId));
        }
        cpu = value;
        packageId = -1;
        coreId = -1;
      } else if ("physical id".equals(key)) {
        packageId = value;
      } else if ("core id".equals(key)) {
        coreId = value;
      }
    }
    if (cpu >= 0) {
      entries.add(new Entry(cpu, packageId, coreId));
    }
    return entries;
  }
}
