package io.github.affinitykit.bench.load;

import static io.github.affinitykit.bench.load.SvgCharts.esc;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The report's table, one row per arm (median [min-max] of its usable trials), written as aligned
 * text for the console and as an HTML table for the report: the same cells in both.
 *
 * <p>Thread safety: immutable after construction.
 */
final class ReportTable {
  private static final String[] HEADER = {
    "arm",
    "usable",
    "msgs/s",
    "CPU%",
    "CPU-us/msg",
    "idle CPU%",
    "cs/msg",
    "p50 us",
    "p99 us",
    "p99.9 us",
    "capacity msg/s",
    "warm-up s",
    "others%",
    "lost/err"
  };

  private final List<String[]> rows = new ArrayList<>();

  /** The table of {@code summaries}. */
  ReportTable(List<ScenarioSummary> summaries) {
    for (ScenarioSummary s : summaries) {
      rows.add(
          new String[] {
            s.scenario().label(),
            s.trials().size() + (s.unusable() == 0 ? "" : " (+" + s.unusable() + " unusable)"),
            s.cell(t -> t.load().messagesPerSecond(), "%.0f"),
            s.cell(Trial::serverCpuPercent, "%.1f"),
            s.cell(Trial::cpuUsPerMessage, "%.2f"),
            s.cell(Trial::idleCpuPercent, "%.1f"),
            s.cell(Trial::switchesPerMessage, "%.2f"),
            s.cell(t -> t.load().latencyUs(50), "%.0f"),
            s.cell(t -> t.load().latencyUs(99), "%.0f"),
            s.cell(t -> t.load().latencyUs(99.9), "%.0f"),
            capacity(s),
            s.cell(t -> t.warmup().tookNs() / 1e9, "%.1f"),
            s.cell(Trial::othersCpuPercent, "%.1f"),
            s.lost() + "/" + s.errors()
          });
    }
  }

  /** Median [range] of the sustained rates; "< N" where no probed rate was sustained. */
  private static String capacity(ScenarioSummary s) {
    long below = s.trials().stream().filter(t -> t.capacity().rate() == 0).count();
    long lowest = s.trials().stream().mapToLong(t -> t.capacity().lowest()).min().orElse(0);
    if (below > 0 && below == s.trials().size()) {
      return String.format(Locale.ROOT, "< %d (lowest probed)", lowest);
    }
    boolean atLeast = s.trials().stream().anyMatch(t -> t.capacity().atLeast());
    String cell = s.cell(t -> t.capacity().rate() == 0 ? Double.NaN : t.capacityRate(), "%.0f");
    return (atLeast ? ">=" : "") + cell + (below == 0 ? "" : " (" + below + " < " + lowest + ")");
  }

  /** Aligned text, a line per arm. */
  String text() {
    int[] width = new int[HEADER.length];
    for (int c = 0; c < HEADER.length; c++) {
      width[c] = HEADER[c].length();
      for (String[] r : rows) {
        width[c] = Math.max(width[c], r[c].length());
      }
    }
    StringBuilder sb = new StringBuilder();
    line(sb, HEADER, width);
    rows.forEach(r -> line(sb, r, width));
    return sb.toString();
  }

  private static void line(StringBuilder sb, String[] cells, int[] width) {
    for (int c = 0; c < cells.length; c++) {
      sb.append(cells[c]).append(" ".repeat(width[c] - cells[c].length() + 2));
    }
    sb.setLength(sb.length() - 2);
    sb.append('\n');
  }

  /** An HTML table. */
  String html() {
    StringBuilder h = new StringBuilder("<table class=\"data\"><tr>");
    for (String c : HEADER) {
      h.append("<th>").append(esc(c)).append("</th>");
    }
    h.append("</tr>");
    for (String[] r : rows) {
      h.append("<tr>");
      for (String c : r) {
        h.append("<td>").append(esc(c)).append("</td>");
      }
      h.append("</tr>");
    }
    return h.append("</table>").toString();
  }
}
