package io.github.affinitykit.jitter;

import io.github.affinitykit.core.internal.KernelLimits;
import io.github.affinitykit.core.internal.ProcNumbers;
import io.github.affinitykit.core.internal.SysFs;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads the per-CPU counters that explain gaps, for the sampled CPUs only: {@code /proc/interrupts}
 * (every row with a count per CPU, numbered IRQs and the architecture's rows such as {@code LOC},
 * the local timer), {@code /proc/softirqs} (each type), {@code /proc/schedstat} (tasks switched in)
 * and {@code /proc/stat} (steal time: the hypervisor ran something else). Each file is read through
 * core's bounded reader ({@link SysFs}): a file larger than what a kernel of 8192 CPUs prints, a
 * FIFO or a device is not read but refused, and reads as absent; a file whose header is not {@code
 * CPU<n>} columns is left out with a note.
 *
 * <p>Thread safety: one thread reads; the notes are kept in a synchronised set.
 */
final class Counters {
  /** The first {@code /proc/schedstat} version whose cpu lines end with {@code pcount}. */
  private static final int SCHEDSTAT_VERSION = 15;

  /** The field of a {@code /proc/schedstat} cpu line that counts tasks switched in. */
  private static final int PCOUNT = 9;

  /** The field of a {@code /proc/stat} cpu line that counts steal time, in USER_HZ ticks. */
  private static final int STEAL = 8;

  private final SysFs fs;
  private final Set<Integer> cpus;
  private final Set<String> notes = new LinkedHashSet<>(); // guarded by itself

  /**
   * One reading of every counter of the sampled CPUs.
   *
   * @param beginNanos {@link System#nanoTime()} before the first file was opened
   * @param endNanos {@link System#nanoTime()} after the last one was parsed
   * @param byCpu per CPU, each counter's value by source
   */
  record Reading(long beginNanos, long endNanos, Map<Integer, Map<String, Long>> byCpu) {}

  Counters(SysFs fs, Set<Integer> cpus) {
    this.fs = fs;
    this.cpus = Set.copyOf(cpus);
  }

  /** Reads the four files now. */
  Reading read() {
    long begin = System.nanoTime();
    Map<Integer, Map<String, Long>> byCpu = new HashMap<>();
    cpus.forEach(cpu -> byCpu.put(cpu, new TreeMap<>()));
    table("/proc/interrupts", "irq ", byCpu);
    table("/proc/softirqs", "softirq ", byCpu);
    schedstat(byCpu);
    steal(byCpu);
    return new Reading(begin, System.nanoTime(), byCpu);
  }

  /** What could not be read or parsed, each once: the reader's refusals, then the parser's. */
  List<String> notes() {
    List<String> out = new ArrayList<>(fs.refusals());
    synchronized (notes) {
      out.addAll(notes);
    }
    return List.copyOf(out);
  }

  private void note(String note) {
    synchronized (notes) {
      notes.add(note);
    }
  }

  /**
   * A {@code CPU0 CPU1 ...} table: a row's count for each sampled CPU, by {@code prefix + label}.
   */
  private void table(String file, String prefix, Map<Integer, Map<String, Long>> byCpu) {
    List<String> lines = fs.lines(file);
    if (lines.isEmpty()) {
      return;
    }
    String[] header = lines.get(0).trim().split("\\s+");
    Map<Integer, Integer> column = new HashMap<>();
    for (int i = 0; i < header.length; i++) {
      int cpu = SysFs.index(header[i], "CPU");
      if (cpu < 0 || cpu >= KernelLimits.CPUS) {
        note(file + ": header column '" + shorten(header[i]) + "' (expected: CPU<n>, n < 8192)");
        return;
      }
      column.put(cpu, i + 1);
    }
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.trim().split("\\s+");
      if (f.length <= header.length || !f[0].endsWith(":")) {
        continue; // ERR:, MIS: (one count, not per CPU), an empty last line
      }
      String source = prefix + f[0].substring(0, f[0].length() - 1);
      for (Map.Entry<Integer, Map<String, Long>> e : byCpu.entrySet()) {
        Integer col = column.get(e.getKey());
        long count = col == null ? -1 : ProcNumbers.counter(f[col]);
        if (count >= 0) {
          e.getValue().put(source, count);
        }
      }
    }
  }

  /** {@code cpu<n>} lines of {@code /proc/schedstat}: their {@code pcount}, tasks switched in. */
  private void schedstat(Map<Integer, Map<String, Long>> byCpu) {
    List<String> lines = fs.lines("/proc/schedstat");
    if (lines.isEmpty()) {
      return;
    }
    String[] version = lines.get(0).trim().split("\\s+");
    long v =
        version.length == 2 && version[0].equals("version") ? ProcNumbers.counter(version[1]) : -1;
    if (v < SCHEDSTAT_VERSION) {
      note(
          "/proc/schedstat: first line '"
              + shorten(lines.get(0))
              + "' (expected: version "
              + SCHEDSTAT_VERSION
              + " or later)");
      return;
    }
    cpuColumn(lines, PCOUNT, "sched switch-in", byCpu);
  }

  /** {@code cpu<n>} lines of {@code /proc/stat}: their steal time, in ticks of 10 ms. */
  private void steal(Map<Integer, Map<String, Long>> byCpu) {
    cpuColumn(fs.lines("/proc/stat"), STEAL, "steal ticks", byCpu);
  }

  /** Field {@code field} of each {@code cpu<n>} line of a sampled CPU, as {@code source}. */
  private static void cpuColumn(
      List<String> lines, int field, String source, Map<Integer, Map<String, Long>> byCpu) {
    for (String line : lines) {
      String[] f = line.startsWith("cpu") ? line.trim().split("\\s+") : new String[0];
      int cpu = f.length > field ? SysFs.index(f[0], "cpu") : -1;
      Map<String, Long> counts = cpu < 0 ? null : byCpu.get(cpu);
      long count = counts == null ? -1 : ProcNumbers.counter(f[field]);
      if (count >= 0) {
        counts.put(source, count);
      }
    }
  }

  private static String shorten(String s) {
    return s.length() > 40 ? s.substring(0, 40) + "..." : s;
  }

  /**
   * What moved on {@code cpu} between two readings, largest move first, each with what it would
   * have moved in that time at its rate between {@code first} and {@code last}.
   *
   * @return the moves; empty if either reading lacks the CPU
   */
  static List<CounterMove> moves(
      Reading before, Reading after, int cpu, Reading first, Reading last) {
    Map<String, Long> then = before.byCpu().getOrDefault(cpu, Map.of());
    Map<String, Long> now = after.byCpu().getOrDefault(cpu, Map.of());
    Map<String, Long> start = first.byCpu().getOrDefault(cpu, Map.of());
    Map<String, Long> end = last.byCpu().getOrDefault(cpu, Map.of());
    double share =
        (double) (after.endNanos() - before.beginNanos())
            / Math.max(1, last.endNanos() - first.beginNanos());
    List<CounterMove> out = new ArrayList<>();
    now.forEach(
        (source, count) -> {
          Long was = then.get(source);
          if (was != null && count > was) {
            long whole = end.getOrDefault(source, 0L) - start.getOrDefault(source, 0L);
            out.add(new CounterMove(source, count - was, Math.max(0, whole) * share));
          }
        });
    out.sort(
        (a, b) ->
            a.delta() != b.delta()
                ? Long.compare(b.delta(), a.delta())
                : a.source().compareTo(b.source()));
    return List.copyOf(out);
  }

  /**
   * Attributes a gap on {@code cpu}: the moves between the last reading that ended before it began
   * and the first that began after it ended; the first and last readings are the window's.
   */
  static Attribution attribute(List<Reading> readings, int cpu, long startNanos, long gapNs) {
    Reading before = null;
    Reading after = null;
    for (Reading r : readings) {
      if (r.endNanos() <= startNanos) {
        before = r;
      } else if (after == null && r.beginNanos() >= startNanos + gapNs) {
        after = r;
      }
    }
    boolean counted =
        before != null
            && after != null
            && !before.byCpu().getOrDefault(cpu, Map.of()).isEmpty()
            && !after.byCpu().getOrDefault(cpu, Map.of()).isEmpty();
    if (!counted) {
      return Attribution.NOT_COUNTED;
    }
    Reading first = readings.get(0);
    Reading last = readings.get(readings.size() - 1);
    return new Attribution(
        moves(before, after, cpu, first, last), before.beginNanos(), after.endNanos(), true);
  }
}
