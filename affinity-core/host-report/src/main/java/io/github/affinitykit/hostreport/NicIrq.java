package io.github.affinitykit.hostreport;

import io.github.affinitykit.core.cpu.CpuSet;
import java.util.Objects;

/**
 * One interrupt of a network device: an MSI/MSI-X vector ({@code device/msi_irqs/<irq>}) or, for a
 * device without them, its legacy line ({@code device/irq}).
 *
 * <p>Thread safety: immutable.
 *
 * @param irq the interrupt number
 * @param name the handler's name: the last column of {@code /proc/interrupts} ({@code
 *     i40e-eth0-TxRx-0}, {@code mlx5_comp3@pci:0000:3b:00.0}, {@code virtio0-input.0}, {@code
 *     eth0}), else the {@code /proc/irq/<irq>/<name>} directory; {@code ""} if neither tells
 * @param queue the queue the vector serves as its name tells it ({@code TxRx-3}, {@code comp3},
 *     {@code input.3} give 3), or -1 (a misc or control vector, a legacy line, no name)
 * @param effective the CPUs it is delivered to ({@code effective_affinity_list}, falling back to
 *     {@code smp_affinity_list}); empty if {@code /proc/irq/<irq>} is missing or unreadable
 */
public record NicIrq(int irq, String name, int queue, CpuSet effective) {
  /**
   * Validates.
   *
   * @param irq the interrupt number, 0 or more
   * @param name the handler's name, {@code ""} if unknown; not null
   * @param queue the queue served, -1 if unknown; not below -1
   * @param effective the CPUs it is delivered to, empty if unknown; not null
   */
  public NicIrq {
    if (irq < 0) {
      throw new IllegalArgumentException("irq: " + irq + " (expected: >= 0)");
    }
    Objects.requireNonNull(name, "name");
    if (queue < -1) {
      throw new IllegalArgumentException("queue: " + queue + " (expected: >= -1)");
    }
    Objects.requireNonNull(effective, "effective");
  }

  /**
   * Returns the queue a vector name tells: the digits at its end (before an {@code @} suffix) when
   * a {@code -}, {@code .} or {@code _} or the mlx5 word {@code comp} precedes them. A legacy line
   * named after its interface ({@code eth1}) and misc vectors ({@code i40e-0000:81:00.0:misc},
   * {@code mlx5_async0}) tell none.
   *
   * @param name a handler name from {@code /proc/interrupts}
   * @return the queue index, or -1
   */
  static int queueOf(String name) {
    int at = name.indexOf('@');
    String n = at >= 0 ? name.substring(0, at) : name;
    int end = n.length();
    int start = end;
    while (start > 0 && n.charAt(start - 1) >= '0' && n.charAt(start - 1) <= '9') {
      start--;
    }
    if (start == end || end - start > 9 || start == 0) {
      return -1;
    }
    char before = n.charAt(start - 1);
    boolean separated = before == '-' || before == '.' || before == '_';
    boolean comp = start >= 4 && n.startsWith("comp", start - 4);
    return separated || comp ? Integer.parseInt(n.substring(start, end)) : -1;
  }
}
