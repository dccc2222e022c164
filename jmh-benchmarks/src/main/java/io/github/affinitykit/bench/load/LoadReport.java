package io.github.affinitykit.bench.load;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a load test's results: the console table (medians with ranges), {@code results.json} and
 * the self-contained {@code report.html}.
 *
 * <p>Thread safety: stateless.
 */
final class LoadReport {
  private LoadReport() {}

  static void write(LoadTestOptions o, List<Trial> trials, PrintStream out) throws IOException {
    List<ScenarioSummary> summaries = new ArrayList<>();
    o.scenarios().forEach(s -> summaries.add(ScenarioSummary.of(s, trials)));
    StringBuilder text = new StringBuilder(table(summaries));
    long flagged = trials.stream().filter(Trial::contaminated).count();
    if (flagged > 0) {
      text.append(
          String.format(
              "%d trial(s) shared the machine with other processes using more than %.0f%% of a CPU"
                  + " and are left out of the medians:%n",
              flagged, o.noiseThresholdPercent()));
      trials.stream()
          .filter(Trial::contaminated)
          .forEach(
              t ->
                  text.append(
                      String.format(
                          "  %s repeat %d: others %.1f%% of a CPU (CPU pressure %.1f%%)%n",
                          t.scenario(),
                          t.repeat() + 1,
                          t.othersCpuPercent(),
                          t.pressurePercent())));
    }
    out.print(text);
    Path json = o.out().resolve("results.json");
    Path html = o.out().resolve("report.html");
    json(o, trials, json);
    Files.writeString(html, HtmlReport.render(o, summaries, text.toString()));
    out.println("results: " + json.toAbsolutePath());
    out.println("report:  " + html.toAbsolutePath());
  }

  static String table(List<ScenarioSummary> summaries) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            "%-10s %3s %-24s %-19s %-22s %-24s %-16s %-20s %-22s %-8s %s%n",
            "scenario",
            "n",
            "msgs/s",
            "CPU%",
            "CPU-us/msg",
            "cs/s",
            "p50 us",
            "p99 us",
            "p99.9 us",
            "others%",
            "lost/err"));
    for (ScenarioSummary s : summaries) {
      sb.append(
          String.format(
              "%-10s %3d %-24s %-19s %-22s %-24s %-16s %-20s %-22s %-8.1f %d/%d%s%n",
              s.scenario().name().toLowerCase(java.util.Locale.ROOT),
              s.trials().size(),
              s.cell(t -> t.load().messagesPerSecond(), "%.0f"),
              s.cell(Trial::serverCpuPercent, "%.1f"),
              s.cell(Trial::cpuUsPerMessage, "%.2f"),
              s.cell(t -> t.voluntaryPerSecond() + t.involuntaryPerSecond(), "%.0f"),
              s.cell(t -> t.load().latencyUs(50), "%.0f"),
              s.cell(t -> t.load().latencyUs(99), "%.0f"),
              s.cell(t -> t.load().latencyUs(99.9), "%.0f"),
              s.stats(Trial::othersCpuPercent)[0],
              s.lost(),
              s.errors(),
              s.allContaminated() ? "  (all trials disturbed)" : ""));
    }
    return sb.toString();
  }

  private static void json(LoadTestOptions o, List<Trial> trials, Path file) throws IOException {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("date", ZonedDateTime.now().toString());
    doc.put("serverCpus", o.serverCpus().toString());
    doc.put("clientCpus", o.clientCpus().toString());
    doc.put("connections", o.load().connections());
    doc.put("ratePerSecond", o.load().ratePerSecond());
    doc.put("payloadBytes", o.load().payloadBytes());
    doc.put("warmupSeconds", o.load().warmup().toMillis() / 1e3);
    doc.put("durationSeconds", o.load().duration().toMillis() / 1e3);
    doc.put("serverArgs", o.serverArgs());
    doc.put("housekeepingCpus", o.housekeepingCpus().toString());
    doc.put("noiseThresholdPercent", o.noiseThresholdPercent());
    doc.put("pressureThresholdPercent", o.pressureThresholdPercent());
    List<Object> rows = new ArrayList<>();
    for (Trial t : trials) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("scenario", t.scenario().name().toLowerCase(java.util.Locale.ROOT));
      r.put("repeat", t.repeat() + 1);
      r.put("messagesPerSecond", t.load().messagesPerSecond());
      r.put("sent", t.load().sent());
      r.put("received", t.load().received());
      r.put("lost", t.load().lost());
      r.put("outOfOrder", t.load().outOfOrder());
      r.put("errors", t.load().errors());
      r.put("serverCpuPercent", t.serverCpuPercent());
      r.put("cpuUsPerMessage", t.cpuUsPerMessage());
      r.put("voluntarySwitchesPerSecond", t.voluntaryPerSecond());
      r.put("involuntarySwitchesPerSecond", t.involuntaryPerSecond());
      r.put("switchesPerMessage", t.switchesPerMessage());
      double msgs = Math.max(1, t.load().messagesPerSecond());
      r.put("voluntarySwitchesPerMessage", t.voluntaryPerSecond() / msgs);
      r.put("involuntarySwitchesPerMessage", t.involuntaryPerSecond() / msgs);
      r.put("migrationsPerSecond", t.migrationsPerSecond());
      r.put("pressurePercent", t.pressurePercent());
      r.put("othersCpuPercent", t.othersCpuPercent());
      r.put("contaminated", t.contaminated());
      Map<String, Object> lat = new LinkedHashMap<>();
      for (double p : ScenarioSummary.percentiles()) {
        lat.put(String.valueOf(p), t.load().latencyUs(p));
      }
      lat.put("max", t.load().latencyNs().getMaxValue() / 1e3);
      r.put("latencyUs", lat);
      rows.add(r);
    }
    doc.put("trials", rows);
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), doc);
  }
}
