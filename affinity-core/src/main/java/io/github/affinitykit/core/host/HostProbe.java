package io.github.affinitykit.core.host;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuTopology;
import io.github.affinitykit.core.internal.SysFs;
import java.util.List;
import java.util.Optional;

/**
 * Reads a {@link HostCpus} snapshot from the kernel files under a root. Missing files mean "feature
 * absent" (no nohz_full, no cpuset controller in a container), never an error.
 *
 * <p>Thread safety: stateless apart from the immutable {@link SysFs}.
 */
final class HostProbe {
  private static final String ALLOWED = "Cpus_allowed_list:";

  private final SysFs fs;

  /** Probes {@code fs}. */
  HostProbe(SysFs fs) {
    this.fs = fs;
  }

  HostCpus probe() {
    CpuTopology topology = TopologyReader.load(fs);
    CgroupCpuset cgroup = new CgroupProbe(fs).probe();
    Optional<CpuSet> allowed = allowedMask();
    HostCpus.KernelIsolation kernel =
        new HostCpus.KernelIsolation(
            fs.cpuList("/sys/devices/system/cpu/isolated").orElse(CpuSet.empty()),
            fs.cpuList("/sys/devices/system/cpu/nohz_full").orElse(CpuSet.empty()));
    return new HostCpus(
        fs.root(),
        topology,
        allowed,
        cgroup,
        kernel,
        PoolPolicy.configuredOverride(),
        fs.refusals());
  }

  /** The calling thread's mask: {@code thread-self} first, {@code self} is the main thread's. */
  private Optional<CpuSet> allowedMask() {
    for (String file : List.of("/proc/thread-self/status", "/proc/self/status")) {
      for (String line : fs.lines(file)) {
        if (line.startsWith(ALLOWED)) { // it bounds the usable CPUs: strict
          return Optional.of(SysFs.hostList(line.substring(ALLOWED.length()).trim()));
        }
      }
    }
    return Optional.empty();
  }
}
