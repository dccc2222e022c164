package io.github.affinitykit.bench.load;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Writes a load test's results: on the console the verdict first, then the host facts, the table
 * (medians with ranges) and what was left out; {@code results.json}; the self-contained {@code
 * report.html} in the same order.
 *
 * <p>Thread safety: stateless.
 */
final class LoadReport {
  private LoadReport() {}

  static void write(LoadTestOptions o, LoadOutcome outcome, PrintStream out) throws IOException {
    List<ScenarioSummary> summaries = new ArrayList<>();
    outcome.scenarios().forEach(s -> summaries.add(ScenarioSummary.of(s, outcome.trials())));
    List<Verdict> verdicts = verdicts(summaries);
    String verdict = verdictText(o, outcome, verdicts) + disturbed(o, summaries);
    String table = table(summaries) + leftOut(o, outcome);
    out.print(verdict);
    out.println();
    out.print(hostText(outcome.host()));
    out.println();
    out.print(table);
    Path json = o.out().resolve("results.json");
    Path html = o.out().resolve("report.html");
    ResultsJson.write(o, outcome, verdicts, json);
    Files.writeString(html, HtmlReport.render(o, outcome, summaries, verdict, table));
    out.println("results: " + json.toAbsolutePath());
    out.println("report:  " + html.toAbsolutePath());
  }

  /** Each scenario against unpinned on CPU per message, p99 and capacity. */
  static List<Verdict> verdicts(List<ScenarioSummary> summaries) {
    List<Verdict> out = new ArrayList<>();
    ScenarioSummary base =
        summaries.stream().filter(s -> s.scenario() == Scenario.UNPINNED).findFirst().orElse(null);
    if (base == null) {
      return out;
    }
    for (ScenarioSummary s : summaries) {
      if (s != base) {
        out.add(verdict(s, base, Verdict.Metric.CPU_PER_MESSAGE, Trial::cpuUsPerMessage));
        out.add(verdict(s, base, Verdict.Metric.P99, t -> t.load().latencyUs(99)));
        out.add(verdict(s, base, Verdict.Metric.CAPACITY, Trial::capacityRate));
      }
    }
    return out;
  }

  private static Verdict verdict(
      ScenarioSummary s, ScenarioSummary base, Verdict.Metric m, ToDoubleFunction<Trial> metric) {
    return Verdict.of(
        s.scenario().label(),
        m,
        s.trials().stream().mapToDouble(metric).toArray(),
        base.trials().stream().mapToDouble(metric).toArray());
  }

  /** The verdict block: the operating point, one sentence per comparison, the method. */
  static String verdictText(LoadTestOptions o, LoadOutcome outcome, List<Verdict> verdicts) {
    StringBuilder sb = new StringBuilder("Verdict ");
    sb.append(
        outcome.rate() == 0
            ? "at maximum throughput"
            : String.format(Locale.ROOT, "at %,d msg/s offered", outcome.rate()));
    outcome
        .calibration()
        .ifPresent(
            c ->
                sb.append(
                    Double.isFinite(c.best().cpuPercent())
                        ? String.format(
                            Locale.ROOT,
                            " (calibrated: unpinned server at %.1f%% CPU, target %.0f%%)",
                            c.best().cpuPercent(),
                            c.target())
                        : " (calibration: the unpinned server kept up with no probed rate)"));
    sb.append(
        String.format(
            Locale.ROOT,
            "; capacity = highest rate sustained with p99 under %d ms:%n",
            o.search().slo().toMillis()));
    if (verdicts.isEmpty()) {
      sb.append("  nothing to compare: the verdict needs unpinned and one other scenario\n");
    }
    verdicts.forEach(v -> sb.append("  ").append(v.sentence()).append('\n'));
    sb.append("  ").append(Verdict.METHOD).append('\n');
    outcome.calibration().ifPresent(c -> sb.append("  ").append(c.describe()).append('\n'));
    return sb.toString();
  }

  /** A caution for each scenario whose every trial was disturbed by other processes. */
  private static String disturbed(LoadTestOptions o, List<ScenarioSummary> summaries) {
    StringBuilder sb = new StringBuilder();
    for (ScenarioSummary s : summaries) {
      if (s.allContaminated()) {
        sb.append(
            String.format(
                Locale.ROOT,
                "  caution: every %s trial shared the machine with other processes (> %.0f%% of a"
                    + " CPU): its figures are of a disturbed machine%n",
                s.scenario().label(),
                o.noiseThresholdPercent()));
      }
    }
    return sb.toString();
  }

  private static String hostText(HostFacts host) {
    StringBuilder sb = new StringBuilder("Host:");
    for (Map.Entry<String, String> e : host.rows().entrySet()) {
      sb.append(' ').append(e.getKey()).append(' ').append(e.getValue()).append(';');
    }
    sb.setLength(sb.length() - 1);
    return sb.append('\n').toString();
  }

  static String table(List<ScenarioSummary> summaries) {
    String row = "%-11s %3s %-22s %-19s %-19s %-16s %-16s %-14s %-18s %-20s %-24s %-8s %s%n";
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            row,
            "scenario",
            "n",
            "msgs/s",
            "CPU%",
            "CPU-us/msg",
            "idle CPU%",
            "cs/msg",
            "p50 us",
            "p99 us",
            "p99.9 us",
            "capacity msg/s",
            "others%",
            "lost/err"));
    for (ScenarioSummary s : summaries) {
      boolean atLeast = s.trials().stream().anyMatch(t -> t.capacity().atLeast());
      sb.append(
          String.format(
              row,
              s.scenario().label(),
              String.valueOf(s.trials().size()),
              s.cell(t -> t.load().messagesPerSecond(), "%.0f"),
              s.cell(Trial::serverCpuPercent, "%.1f"),
              s.cell(Trial::cpuUsPerMessage, "%.2f"),
              s.cell(Trial::idleCpuPercent, "%.1f"),
              s.cell(Trial::switchesPerMessage, "%.2f"),
              s.cell(t -> t.load().latencyUs(50), "%.0f"),
              s.cell(t -> t.load().latencyUs(99), "%.0f"),
              s.cell(t -> t.load().latencyUs(99.9), "%.0f"),
              (atLeast ? ">=" : "") + s.cell(Trial::capacityRate, "%.0f"),
              String.format(Locale.ROOT, "%.1f", s.stats(Trial::othersCpuPercent)[0]),
              s.lost()
                  + "/"
                  + s.errors()
                  + (s.allContaminated() ? "  (all trials disturbed)" : "")));
    }
    return sb.toString();
  }

  private static String leftOut(LoadTestOptions o, LoadOutcome outcome) {
    StringBuilder text = new StringBuilder();
    List<Trial> flagged = outcome.trials().stream().filter(Trial::contaminated).toList();
    if (!flagged.isEmpty()) {
      text.append(
          String.format(
              "%d trial(s) shared the machine with other processes using more than %.0f%% of a CPU"
                  + " and are left out of the medians and the verdict:%n",
              flagged.size(), o.noiseThresholdPercent()));
      flagged.forEach(
          t ->
              text.append(
                  String.format(
                      "  %s repeat %d: others %.1f%% of a CPU (CPU pressure %.1f%%)%n",
                      t.scenario().label(),
                      t.repeat() + 1,
                      t.othersCpuPercent(),
                      t.pressurePercent())));
    }
    outcome.notes().forEach(n -> text.append(n).append('\n'));
    return text.toString();
  }
}
