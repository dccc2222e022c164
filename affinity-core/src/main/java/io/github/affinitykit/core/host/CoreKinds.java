package io.github.affinitykit.core.host;

import io.github.affinitykit.core.cpu.CoreType;
import io.github.affinitykit.core.cpu.CpuInfo;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.SysFs;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Tells core kinds apart on hybrid parts from per-CPU sysfs sources, never the maximum frequency
 * (see ARCHITECTURE.md, "Core kinds"). The most powerful kind is {@link CoreType#PERFORMANCE}, the
 * others {@link CoreType#EFFICIENCY}, unless Intel's PMUs say which CPUs are Atoms.
 *
 * <p>Thread safety: stateless.
 */
final class CoreKinds {
  private static final String[] SOURCES = {
    "cpu_capacity", "cpufreq/base_frequency", "acpi_cppc/nominal_perf"
  };
  private static final String[] PMUS = {"cpu_lowpower", "cpu_atom", "cpu_core"};

  private CoreKinds() {}

  /** Returns the CPUs with their {@link CoreType} and kind rank set. */
  static List<CpuInfo> apply(SysFs fs, List<CpuInfo> cpus) {
    Map<Integer, Long> pmu = pmuClasses(fs, cpus);
    Map<Integer, Long> values = pmu;
    for (String source : SOURCES) {
      Optional<Map<Integer, Long>> v = values(fs, cpus, source);
      if (v.isPresent() && distinct(v.get()) > 1) {
        values = v.get();
        break;
      }
    }
    if (distinct(values) < 2) {
      return cpus;
    }
    TreeSet<Long> ranks = new TreeSet<>(values.values());
    List<CpuInfo> out = new ArrayList<>(cpus.size());
    for (CpuInfo c : cpus) {
      long v = values.get(c.cpu());
      int rank = ranks.headSet(v).size();
      CoreType type;
      if (pmu.isEmpty()) {
        type = v == ranks.last() ? CoreType.PERFORMANCE : CoreType.EFFICIENCY;
      } else {
        type = pmu.get(c.cpu()) == PMUS.length - 1 ? CoreType.PERFORMANCE : CoreType.EFFICIENCY;
      }
      out.add(
          new CpuInfo(
              c.cpu(),
              c.packageId(),
              c.dieId(),
              c.clusterId(),
              c.coreId(),
              c.core(),
              c.packageCpus(),
              c.node(),
              c.l2(),
              c.l3(),
              type,
              rank));
    }
    return out;
  }

  private static long distinct(Map<Integer, Long> values) {
    return values.values().stream().distinct().count();
  }

  /** The source's positive value for every CPU, or empty if a CPU lacks it. */
  private static Optional<Map<Integer, Long>> values(SysFs fs, List<CpuInfo> cpus, String source) {
    Map<Integer, Long> values = new HashMap<>();
    for (CpuInfo c : cpus) {
      String s = fs.read(TopologyReader.CPU_DIR + "/cpu" + c.cpu() + "/" + source).orElse("");
      try {
        long v = Long.parseLong(s.trim());
        if (v <= 0) {
          return Optional.empty();
        }
        values.put(c.cpu(), v);
      } catch (NumberFormatException e) {
        return Optional.empty();
      }
    }
    return Optional.of(values);
  }

  /**
   * Each CPU's PMU class (index in {@link #PMUS}), or empty unless every CPU has exactly one and
   * there are two classes at least.
   */
  private static Map<Integer, Long> pmuClasses(SysFs fs, List<CpuInfo> cpus) {
    Map<Integer, Long> classes = new HashMap<>();
    for (int i = 0; i < PMUS.length; i++) {
      CpuSet members =
          fs.cpuListOrEmpty("/sys/devices/" + PMUS[i] + "/cpus").orElse(CpuSet.empty());
      long cls = i;
      members.forEach(cpu -> classes.merge(cpu, cls, (a, b) -> -1L));
    }
    for (CpuInfo c : cpus) {
      Long cls = classes.get(c.cpu());
      if (cls == null || cls < 0) {
        return Map.of();
      }
    }
    classes.keySet().retainAll(cpus.stream().map(CpuInfo::cpu).toList());
    return distinct(classes) < 2 ? Map.of() : classes;
  }
}
