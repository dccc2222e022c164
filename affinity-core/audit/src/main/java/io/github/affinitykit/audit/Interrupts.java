package io.github.affinitykit.audit;

import io.github.affinitykit.core.internal.ProcNumbers;
import io.github.affinitykit.core.internal.SysFs;
import io.github.affinitykit.hostreport.proc.InterruptTable;
import java.util.HashMap;
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
    InterruptTable table = InterruptTable.read(fs);
    Map<Integer, Map<Integer, Long>> out = new HashMap<>();
    for (InterruptTable.Row row : table.rows()) {
      Map<Integer, Long> perCpu = new HashMap<>();
      for (int i = 0; i < table.cpus().size(); i++) {
        perCpu.put(table.cpus().get(i), ProcNumbers.counter(row.counts().get(i)));
      }
      out.put(row.irq(), perCpu);
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
