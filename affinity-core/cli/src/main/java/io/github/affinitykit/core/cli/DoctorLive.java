package io.github.affinitykit.core.cli;

import io.github.affinitykit.audit.CpuAudit;
import io.github.affinitykit.audit.TaskSample;
import io.github.affinitykit.audit.ThreadStats;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cpu.CpuSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The live sections of the doctor: an exclusivity audit of the pool CPUs, and this JVM's threads
 * grouped by the CPUs they may run on.
 *
 * <p>Thread safety: stateless; {@link #render} blocks for the audit window.
 */
final class DoctorLive {
  private static final int NAMES = 4;

  private DoctorLive() {}

  static String render(AffinityKit kit, Duration window) {
    StringBuilder out = new StringBuilder();
    CpuSet cpus = kit.pool().cpus();
    if (window.isZero() || cpus.isEmpty()) {
      out.append("\nAudit      skipped").append(cpus.isEmpty() ? " (empty pool)" : "").append('\n');
    } else {
      CpuAudit audit = CpuAudit.of(kit, cpus, window);
      out.append("\nAudit      ")
          .append(window.toMillis())
          .append(" ms over pool ")
          .append(cpus)
          .append(" (owners: threads pinned by Affinity Kit in this JVM)\n");
      audit
          .summary()
          .lines()
          .limit(8)
          .forEach(l -> out.append("  ").append(shorten(l)).append('\n'));
    }
    threads(out, kit);
    return out.toString();
  }

  private static void threads(StringBuilder out, AffinityKit kit) {
    List<TaskSample> threads = ThreadStats.snapshot().threads();
    Set<Integer> pinned = kit.pinnedThreadIds();
    out.append("\nThis JVM   ")
        .append(threads.size())
        .append(" threads, ")
        .append(pinned.size())
        .append(" pinned by Affinity Kit; by allowed CPUs:\n");
    Map<String, List<TaskSample>> byMask = new TreeMap<>();
    for (TaskSample t : threads) {
      byMask.computeIfAbsent(t.allowed().toString(), k -> new ArrayList<>()).add(t);
    }
    byMask.forEach(
        (mask, ts) -> {
          List<String> names = new ArrayList<>();
          ts.stream().limit(NAMES).forEach(t -> names.add(t.name() + "@" + t.lastCpu()));
          out.append(
              String.format(
                  "  %-12s %3d: %s%s%n",
                  mask.isEmpty() ? "?" : mask,
                  ts.size(),
                  String.join(", ", names),
                  ts.size() > NAMES ? ", ..." : ""));
        });
  }

  private static String shorten(String line) {
    return line.length() <= 160 ? line : line.substring(0, 157) + "...";
  }
}
