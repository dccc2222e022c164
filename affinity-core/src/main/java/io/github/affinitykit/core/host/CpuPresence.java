package io.github.affinitykit.core.host;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.KernelLimits;
import io.github.affinitykit.core.internal.SysFs;
import java.util.BitSet;
import java.util.Optional;

/**
 * The kernel's CPU population masks: {@code possible}, {@code present}, {@code online} and {@code
 * offline} from {@code /sys/devices/system/cpu}. Old kernels lack the files: then the {@code cpuN}
 * directories stand for possible and present CPUs, and a CPU is online unless its {@code
 * cpuN/online} reads {@code 0} (the boot CPU has no such file).
 *
 * <p>Thread safety: immutable.
 */
record CpuPresence(CpuSet possible, CpuSet present, CpuSet online, CpuSet offline) {
  static final String CPU_DIR = "/sys/devices/system/cpu";

  static CpuPresence read(SysFs fs) {
    CpuSet dirs = cpuDirectories(fs);
    CpuSet online = list(fs, "online").orElseGet(() -> onlineByDirectory(fs, dirs));
    CpuSet possible = list(fs, "possible").orElse(dirs.union(online));
    CpuSet present = list(fs, "present").orElse(dirs.union(online));
    CpuSet offline = list(fs, "offline").orElse(possible.minus(online));
    return new CpuPresence(possible, present, online, offline);
  }

  /**
   * Completes the masks with the CPUs {@code /proc/cpuinfo} lists, which are online: used when
   * sysfs says nothing.
   */
  CpuPresence withOnline(CpuSet processors) {
    CpuSet on = online.isEmpty() ? processors : online;
    CpuSet poss = possible.union(on);
    return new CpuPresence(poss, present.union(on), on, offline.union(poss.minus(on)));
  }

  /** The number of bits a CPU mask of this host needs: the highest CPU id seen, plus one. */
  int maskBits(CpuSet known) {
    return Math.max(
            Math.max(possible.last(), present.last()), Math.max(online.last(), known.last()))
        + 1;
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
