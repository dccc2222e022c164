package io.github.affinitykit.isolation;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuSetFormatException;
import io.github.affinitykit.core.internal.SysFs;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The changes every mechanism makes besides tasks, since no cgroup moves them: each IRQ allowed on
 * the CPUs gets a narrowed {@code smp_affinity}; {@code /proc/irq/default_smp_affinity} (IRQs
 * registered later) and the unbound workqueues' cpumask ({@code
 * /sys/devices/virtual/workqueue/cpumask}, the kworker/u threads) are narrowed too.
 *
 * <p>Thread safety: stateless.
 */
final class IrqPlan {
  static final String DEFAULT_AFFINITY = Writable.DEFAULT_AFFINITY;
  static final String WORKQUEUE_MASK = Writable.WORKQUEUE_MASK;

  private IrqPlan() {}

  static List<Step> steps(Scene s) {
    List<Step> out = new ArrayList<>();
    for (String name : s.files().fs().list("/proc/irq")) {
      int irq = SysFs.index(name, "");
      if (irq >= 0) {
        narrow(s, Change.Kind.IRQ, Writable.irqAffinity(irq)).ifPresent(out::add);
      }
    }
    narrow(s, Change.Kind.FILE, DEFAULT_AFFINITY).ifPresent(out::add);
    narrow(s, Change.Kind.FILE, WORKQUEUE_MASK).ifPresent(out::add);
    return out;
  }

  /** A write narrowing the hex mask in {@code path} off the CPUs, if it names any of them. */
  private static Optional<Step> narrow(Scene s, Change.Kind kind, String path) {
    Optional<String> raw = s.files().raw(path);
    if (raw.isEmpty()) {
      return Optional.empty();
    }
    CpuSet mask;
    try {
      mask = CpuSet.parseMask(raw.get().strip());
    } catch (CpuSetFormatException e) {
      return Optional.empty(); // not a mask we understand: leave it alone
    }
    if (!mask.intersects(s.cpus())) {
      return Optional.empty();
    }
    String text = s.narrowed(mask).toMask(Math.max(s.nbits(), mask.last() + 1)) + "\n";
    return Optional.of(WriteStep.restoring(kind, path, raw.get(), text));
  }
}
