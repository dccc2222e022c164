package io.github.affinitykit.hostreport.proc;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.SysFs;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Where one interrupt may and does land ({@code /proc/irq/N/}), for the audit and the host report.
 *
 * <p>Thread safety: immutable.
 *
 * @param irq the interrupt number, 0 or more
 * @param effective {@code effective_affinity_list}: the CPUs the interrupt is delivered to; {@code
 *     affinity} on kernels without the file
 * @param affinity {@code smp_affinity_list}: the CPUs it is allowed on
 */
public record IrqRoute(int irq, CpuSet effective, CpuSet affinity) {
  /**
   * Reads every numbered directory of {@code /proc/irq} with an affinity file, ascending; {@link
   * io.github.affinitykit.core.cpu.CpuSetFormatException} if an affinity is not a cpu list.
   */
  public static List<IrqRoute> read(SysFs fs) {
    List<IrqRoute> out = new ArrayList<>();
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
        out.add(new IrqRoute(irq, effective.orElse(a), a));
      }
    }
    out.sort(Comparator.comparingInt(IrqRoute::irq));
    return out;
  }
}
