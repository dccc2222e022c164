package io.github.affinitykit.core.host;

import io.github.affinitykit.core.cpu.CpuInfo;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuTopology;
import io.github.affinitykit.core.internal.KernelLimits;
import io.github.affinitykit.core.internal.SysFs;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads a {@link CpuTopology} from sysfs ({@link SysfsTopologyReader}; {@link
 * CpuinfoTopologyReader} only when sysfs has no CPU topology) and the CPU population masks. Old
 * kernels lack the masks: then the {@code cpuN} directories stand for possible and present CPUs,
 * and a CPU is online unless its {@code cpuN/online} reads {@code 0} (the boot CPU has none).
 *
 * <p>Thread safety: stateless; each call reads afresh on the calling thread.
 */
final class TopologyReader {
  static final String CPU_DIR = "/sys/devices/system/cpu";
  private static final String SYSFS = "sysfs";
  private static final String CPUINFO = "/proc/cpuinfo";

  private TopologyReader() {}

  /** Reads the topology under {@code root}; {@link IllegalStateException} if it lists no CPU. */
  static CpuTopology load(Path root) {
    return load(new SysFs(Objects.requireNonNull(root, "root")));
  }

  /** Reads the topology of the tree {@code fs} reads, as {@link #load(Path)}. */
  static CpuTopology load(SysFs fs) {
    CpuSet dirs = cpuDirectories(fs);
    CpuSet online = list(fs, "online").orElseGet(() -> onlineByDirectory(fs, dirs));
    CpuSet possible = list(fs, "possible").orElse(dirs.union(online));
    CpuSet present = list(fs, "present").orElse(dirs.union(online));
    CpuSet offline = list(fs, "offline").orElse(possible.minus(online));
    NumaNodes numa = NumaNodes.read(fs);
    List<CpuInfo> cpus = SysfsTopologyReader.read(fs, online, numa);
    if (!cpus.isEmpty()) {
      return new CpuTopology(SYSFS, cpus, possible, present, online, offline, numa.distances());
    }
    cpus = CpuinfoTopologyReader.read(fs.read(CPUINFO).orElse(""), online, numa);
    if (cpus.isEmpty()) {
      String rule = "a Linux root where sys/devices/system/cpu or proc/cpuinfo lists an online CPU";
      throw new IllegalStateException("root: " + fs.root() + " (expected: " + rule + ")");
    }
    // the CPUs /proc/cpuinfo lists are online: they complete masks sysfs left empty
    CpuSet processors = CpuSet.of(cpus.stream().mapToInt(CpuInfo::cpu).toArray());
    CpuSet on = online.isEmpty() ? processors : online;
    CpuSet poss = possible.union(on);
    CpuSet off = offline.union(poss.minus(on));
    return new CpuTopology(CPUINFO, cpus, poss, present.union(on), on, off, numa.distances());
  }

  /** A cpu-list file of the cpu directory; a malformed one counts as absent. */
  private static Optional<CpuSet> list(SysFs fs, String name) {
    return fs.cpuListOrEmpty(CPU_DIR + "/" + name);
  }

  /** The ids of the {@code cpuN} directories of the cpu directory. */
  static CpuSet cpuDirectories(SysFs fs) {
    BitSet ids = new BitSet();
    for (String name : fs.list(CPU_DIR)) {
      int id = fs.index(CPU_DIR, name, "cpu", KernelLimits.CPUS);
      if (id >= 0) {
        ids.set(id);
      }
    }
    return CpuSet.of(ids);
  }

  private static CpuSet onlineByDirectory(SysFs fs, CpuSet dirs) {
    BitSet ids = new BitSet();
    dirs.forEach(
        cpu -> {
          if (!"0".equals(fs.read(CPU_DIR + "/cpu" + cpu + "/online").orElse("1"))) {
            ids.set(cpu);
          }
        });
    return CpuSet.of(ids);
  }
}
