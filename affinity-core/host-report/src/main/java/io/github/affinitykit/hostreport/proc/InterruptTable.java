package io.github.affinitykit.hostreport.proc;

import io.github.affinitykit.core.internal.KernelLimits;
import io.github.affinitykit.core.internal.SysFs;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The numbered rows of {@code /proc/interrupts}: per IRQ, its count on each CPU of the header and
 * the name of its handler (the audit reads the counts, the host report the names).
 *
 * <p>Thread safety: immutable.
 */
public final class InterruptTable {
  // chip, hardware IRQ and trigger before the handler names; fewer (a freed IRQ, an ARM GIC row
  // "GICv3 27 Level") names none
  private static final int NAMED_TAIL = 3;

  private final List<Integer> cpus;
  private final List<Row> rows;

  /**
   * One numbered row.
   *
   * @param irq the IRQ number
   * @param counts the counts as printed, one per CPU of {@link #cpus()}, in header order
   * @param name the last column (the last handler of a shared IRQ), {@code ""} if none
   */
  public record Row(int irq, List<String> counts, String name) {
    /** Copies the counts. */
    public Row {
      counts = List.copyOf(counts);
      Objects.requireNonNull(name, "name");
    }
  }

  private InterruptTable(List<Integer> cpus, List<Row> rows) {
    this.cpus = List.copyOf(cpus);
    this.rows = List.copyOf(rows);
  }

  /**
   * Reads {@code /proc/interrupts} under {@code fs}: no rows without a valid {@code CPU<n>} header;
   * rows not numbered ({@code NMI:}) or with fewer columns than CPUs are left out.
   */
  public static InterruptTable read(SysFs fs) {
    List<String> lines = fs.lines("/proc/interrupts");
    if (lines.isEmpty()) {
      return new InterruptTable(List.of(), List.of());
    }
    List<Integer> cpus = new ArrayList<>();
    for (String h : lines.get(0).trim().split("\\s+")) {
      int cpu = SysFs.index(h, "CPU");
      if (cpu < 0 || cpu >= KernelLimits.CPUS) {
        return new InterruptTable(List.of(), List.of());
      }
      cpus.add(cpu);
    }
    List<Row> rows = new ArrayList<>();
    int n = cpus.size();
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.trim().split("\\s+");
      String label = f[0].endsWith(":") ? f[0].substring(0, f[0].length() - 1) : f[0];
      int irq = f.length > n ? SysFs.index(label, "") : -1;
      if (irq >= 0) {
        String last = f[f.length - 1];
        boolean trigger = last.equals("Level") || last.equals("Edge"); // a GIC row, no handler
        String name = f.length - 1 - n >= NAMED_TAIL && !trigger ? last : "";
        rows.add(new Row(irq, List.of(f).subList(1, n + 1), name));
      }
    }
    return new InterruptTable(cpus, rows);
  }

  /** The CPUs of the header, in column order; empty if the file was absent or garbled. */
  public List<Integer> cpus() {
    return cpus;
  }

  /** The numbered rows, in file order. */
  public List<Row> rows() {
    return rows;
  }
}
