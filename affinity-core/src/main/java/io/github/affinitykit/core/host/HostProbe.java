package io.github.affinitykit.core.host;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuTopology;
import io.github.affinitykit.core.internal.SysFs;
import io.github.affinitykit.core.internal.TaskStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;

/**
 * Reads a {@link HostCpus} snapshot from the kernel files under a root. Missing files mean "feature
 * absent" (no nohz_full, no IRQ files in a container), never an error.
 *
 * <p>Thread safety: stateless apart from the immutable {@link SysFs}.
 */
final class HostProbe {
  private final SysFs fs;
  private final Function<String, Optional<String>> vmOption;

  /**
   * Probes {@code fs}.
   *
   * @param fs the tree to read
   * @param vmOption reads a {@code -XX} option of this JVM ({@link VmOptions#live}; a test's
   *     stand-in), asked only for {@code UseNUMA} and only on a host with several NUMA nodes
   */
  HostProbe(SysFs fs, Function<String, Optional<String>> vmOption) {
    this.fs = fs;
    this.vmOption = vmOption;
  }

  HostCpus probe() {
    CpuTopology topology = TopologyReader.load(fs);
    int nbits = topology.possibleCount();
    CgroupCpuset cgroup = new CgroupProbe(fs).probe();
    List<IrqAffinity> irqs = irqs();
    Optional<Boolean> useNuma =
        topology.numaNodes().size() > 1
            ? VmOptions.flag(vmOption.apply("UseNUMA"))
            : Optional.empty();
    Optional<CpuSet> allowed = allowedMask();
    HostCpus.KernelIsolation kernel =
        new HostCpus.KernelIsolation(
            fs.cpuList("/sys/devices/system/cpu/isolated").orElse(CpuSet.empty()),
            fs.cpuList("/sys/devices/system/cpu/nohz_full").orElse(CpuSet.empty()),
            KernelCmdline.parse(fs.read("/proc/cmdline").orElse(""), nbits));
    HostCpus.IrqRouting routing =
        new HostCpus.IrqRouting(
            irqs,
            fs.read("/proc/irq/default_smp_affinity").map(SysFs::hostMask).orElse(CpuSet.empty()),
            new NetProbe(fs, irqs).probe());
    HostCpus.JvmSettings jvm =
        new HostCpus.JvmSettings(PoolPolicy.configuredOverride(), useNuma, numaBalancing());
    return new HostCpus(topology, allowed, cgroup, kernel, routing, jvm, fs.refusals());
  }

  /** {@code kernel.numa_balancing}: 0 off, else on (1 normal, 2 memory tiering, 3 both). */
  private Optional<Boolean> numaBalancing() {
    OptionalInt v = fs.integer("/proc/sys/kernel/numa_balancing");
    return v.isPresent() ? Optional.of(v.getAsInt() != 0) : Optional.empty();
  }

  /** The calling thread's mask: {@code thread-self} first, {@code self} is the main thread's. */
  private Optional<CpuSet> allowedMask() {
    for (String file : List.of("/proc/thread-self/status", "/proc/self/status")) {
      Optional<String> list = TaskStatus.parse(fs.lines(file)).allowedList();
      if (list.isPresent()) {
        return Optional.of(SysFs.hostList(list.get())); // it bounds the usable CPUs: strict
      }
    }
    return Optional.empty();
  }

  private List<IrqAffinity> irqs() {
    List<IrqAffinity> out = new ArrayList<>();
    for (String name : fs.list("/proc/irq")) {
      int irq = SysFs.index(name, ""); // ASCII digits only, at most 9 of them
      if (irq < 0) {
        continue;
      }
      String dir = "/proc/irq/" + name + "/";
      Optional<CpuSet> affinity = fs.cpuList(dir + "smp_affinity_list");
      Optional<CpuSet> effective = fs.cpuList(dir + "effective_affinity_list");
      if (affinity.isPresent() || effective.isPresent()) {
        CpuSet a = affinity.orElse(effective.orElse(CpuSet.empty()));
        out.add(new IrqAffinity(irq, effective.orElse(a), a));
      }
    }
    out.sort((x, y) -> Integer.compare(x.irq(), y.irq()));
    return out;
  }
}
