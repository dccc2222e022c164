package io.github.affinitykit.bench.load;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes a load test's results: on the console the verdict first ({@link Judgement}), then the host
 * facts, the table (medians with ranges of the usable trials) and the trials that were not usable;
 * {@code results.json}; the self-contained {@code report.html} in the same order.
 *
 * <p>Thread safety: stateless.
 */
final class LoadReport {
  private LoadReport() {}

  static void write(LoadTestOptions o, LoadOutcome outcome, PrintStream out) throws IOException {
    List<ScenarioSummary> summaries = summaries(outcome);
    Judgement j = Judgement.of(o, outcome, summaries);
    ReportTable table = new ReportTable(summaries);
    String unusable = unusable(outcome);
    out.print(verdictText(j));
    out.println();
    out.print(hostText(outcome.host()));
    out.println();
    out.print(table.text());
    out.print(unusable);
    Path json = o.out().resolve("results.json");
    Path html = o.out().resolve("report.html");
    ResultsJson.write(o, outcome, j, json);
    Files.writeString(html, HtmlReport.render(o, outcome, summaries, j, table, unusable));
    out.println("results: " + json.toAbsolutePath());
    out.println("report:  " + html.toAbsolutePath());
  }

  /** Each arm's usable trials. */
  static List<ScenarioSummary> summaries(LoadOutcome outcome) {
    List<ScenarioSummary> summaries = new ArrayList<>();
    outcome.scenarios().forEach(s -> summaries.add(ScenarioSummary.of(s, outcome.trials())));
    return summaries;
  }

  /** The verdict block: a sentence a line. */
  static String verdictText(Judgement j) {
    StringBuilder sb = new StringBuilder("Verdict:\n");
    j.lines().forEach(l -> sb.append("  ").append(l).append('\n'));
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

  /** The trials left out of the medians, each with why, and the notes. */
  static String unusable(LoadOutcome outcome) {
    StringBuilder text = new StringBuilder();
    List<Trial> left = outcome.trials().stream().filter(t -> !t.usable()).toList();
    if (!left.isEmpty()) {
      text.append(
          String.format(
              Locale.ROOT,
              "%d trial(s) not usable, left out of the medians and the verdict:%n",
              left.size()));
      left.forEach(
          t ->
              text.append(
                  String.format(
                      Locale.ROOT,
                      "  %s trial %d: %s%n",
                      t.scenario().label(),
                      t.repeat() + 1,
                      t.whyUnusable())));
    }
    outcome.notes().forEach(n -> text.append(n).append('\n'));
    return text.toString();
  }
}
