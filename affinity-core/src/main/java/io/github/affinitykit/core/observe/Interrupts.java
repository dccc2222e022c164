package io.github.affinitykit.core.observe;

import io.github.affinitykit.core.internal.ProcNumbers;
import io.github.affinitykit.core.internal.SysFs;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How many times each numbered IRQ fired on each CPU so far ({@code /proc/interrupts}): the audit
 * reads it at both ends of its window to tell an IRQ whose move is still pending (the kernel moves
 * it at its next interrupt) from one that still fires on the CPU.
 *
 * <p>Thread safety: immutable.
 */
final class Interrupts {
  private final Map<Integer, Map<Integer, Long>> counts;

  private Interrupts(Map<Integer, Map<Integer, Long>> counts) {
    this.counts = counts;
  }

  /** No counts: every question answers unknown. */
  static Interrupts none() {
    return new Interrupts(Map.of());
  }

  /** Reads {@code /proc/interrupts} under {@code fs}; none if absent or garbled. */
  static Interrupts read(SysFs fs) {
    List<String> lines = fs.lines("/proc/interrupts");
    if (lines.isEmpty()) {
      return none();
    }
    List<Integer> cpus = new ArrayList<>();
    for (String h : lines.get(0).trim().split("\\s+")) {
      int cpu = SysFs.index(h, "CPU");
      if (cpu < 0) {
        return none();
      }
      cpus.add(cpu);
    }
    Map<Integer, Map<Integer, Long>> out = new HashMap<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.trim().split("\\s+");
      int irq = f.length > cpus.size() ? SysFs.index(f[0], "") : -1;
      if (irq < 0 && f.length > cpus.size() && f[0].endsWith(":")) {
        irq = SysFs.index(f[0].substring(0, f[0].length() - 1), "");
      }
      if (irq >= 0) {
        Map<Integer, Long> perCpu = new HashMap<>();
        for (int i = 0; i < cpus.size(); i++) {
          perCpu.put(cpus.get(i), ProcNumbers.counter(f[i + 1]));
        }
        out.put(irq, perCpu);
      }
    }
    return new Interrupts(out);
  }

  /**
   * Whether IRQ {@code irq} fired on {@code cpu} between {@code earlier} and this reading; true
   * when either does not know (the audit then assumes the worst).
   */
  boolean firedSince(Interrupts earlier, int irq, int cpu) {
    long now = counts.getOrDefault(irq, Map.of()).getOrDefault(cpu, -1L);
    long then = earlier.counts.getOrDefault(irq, Map.of()).getOrDefault(cpu, -1L);
    return now < 0 || then < 0 || now != then;
  }
}
