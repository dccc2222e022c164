package io.github.affinitykit.hostreport;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.SysFs;
import io.github.affinitykit.hostreport.proc.IrqRoute;
import java.util.List;
import java.util.Objects;

/**
 * Where one interrupt may and does land ({@code /proc/irq/N/}).
 *
 * <p>Thread safety: immutable.
 *
 * @param irq the interrupt number
 * @param effective {@code effective_affinity_list}: the CPUs the interrupt is actually delivered
 *     to; falls back to {@code affinity} on kernels without the file
 * @param affinity {@code smp_affinity_list}: the CPUs it is allowed on
 */
public record IrqAffinity(int irq, CpuSet effective, CpuSet affinity) {
  /**
   * Validates.
   *
   * @param irq the interrupt number, 0 or more
   * @param effective the CPUs the interrupt is delivered to; not null
   * @param affinity the CPUs it is allowed on; not null
   */
  public IrqAffinity {
    if (irq < 0) {
      throw new IllegalArgumentException("irq: " + irq + " (expected: >= 0)");
    }
    Objects.requireNonNull(effective, "effective");
    Objects.requireNonNull(affinity, "affinity");
  }

  /** Every IRQ of {@code /proc/irq} under {@code fs} that has an affinity file, by number. */
  static List<IrqAffinity> read(SysFs fs) {
    return IrqRoute.read(fs).stream()
        .map(r -> new IrqAffinity(r.irq(), r.effective(), r.affinity()))
        .toList();
  }
}
