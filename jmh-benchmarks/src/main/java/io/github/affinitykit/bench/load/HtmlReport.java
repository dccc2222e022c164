package io.github.affinitykit.bench.load;

import static io.github.affinitykit.bench.load.SvgCharts.esc;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A self-contained HTML page (inline SVG, no network assets), in the order a reader needs it: the
 * verdict as sentences, the host facts that decide it, the charts (labelled axes, units), then the
 * table and the trials left out.
 *
 * <p>Thread safety: stateless.
 */
final class HtmlReport {
  /** Human-readable timestamps: {@code 2026-11-23 14:05:09 UTC}. */
  static final DateTimeFormatter WHEN =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss zzz", Locale.ROOT);

  private static final String STYLE =
      "body{font-family:sans-serif;margin:24px;max-width:1300px;line-height:1.45}"
          + "p.verdict{margin:6px 0}p.warn{font-weight:bold;color:#a40000}"
          + "p.quiet{color:#555;font-size:13px}td,th{padding:2px 12px 2px 0;text-align:left}"
          + "table.data{border-collapse:collapse;font-size:13px}"
          + "table.data td,table.data th{border-bottom:1px solid #ddd;white-space:nowrap}"
          + ".wide{overflow-x:auto}"
          + ".charts{display:flex;flex-wrap:wrap;gap:16px}svg{border:1px solid #ddd}";

  private HtmlReport() {}

  static String render(
      LoadTestOptions o,
      LoadOutcome outcome,
      List<ScenarioSummary> s,
      Judgement j,
      ReportTable table,
      String unusable) {
    StringBuilder h = new StringBuilder();
    h.append("<!doctype html><html><head><meta charset=\"utf-8\">")
        .append("<title>Affinity Kit gateway load test</title><style>")
        .append(STYLE)
        .append("</style></head><body><h1>Gateway load test: what pinning buys</h1>")
        .append("<h2 id=\"verdict\">Verdict</h2>");
    int warnings = warnings(j);
    for (int i = 0; i < j.lines().size(); i++) {
      String cls = i < warnings ? "verdict warn" : i == j.lines().size() - 1 ? "quiet" : "verdict";
      h.append("<p class=\"").append(cls).append("\">").append(esc(j.lines().get(i)));
      h.append("</p>");
    }
    h.append("<h2 id=\"host\">Host</h2><table>");
    for (Map.Entry<String, String> e : outcome.host().rows().entrySet()) {
      h.append("<tr><td>").append(esc(e.getKey())).append("</td><td>");
      h.append(esc(e.getValue())).append("</td></tr>");
    }
    h.append("</table><p>").append(esc(run(o, outcome, j.point()))).append("</p>");
    h.append("<h2 id=\"charts\">Charts</h2><div class=\"charts\">");
    charts(h, o, s);
    h.append("</div><h2 id=\"table\">Table</h2><p>Median [min-max] of each arm's usable trials")
        .append(" (the latency curves merge their histograms).</p><div class=\"wide\">")
        .append(table.html())
        .append("</div>");
    if (!unusable.isEmpty()) {
      h.append("<ul>");
      unusable.lines().forEach(l -> h.append("<li>").append(esc(l.trim())).append("</li>"));
      h.append("</ul>");
    }
    return h.append("</body></html>\n").toString();
  }

  /** How many of the verdict's first lines warn (operating point missed, claims withheld). */
  private static int warnings(Judgement j) {
    return (j.point().missed() ? 1 : 0) + (j.controls().withheld().isEmpty() ? 0 : 1);
  }

  private static String run(LoadTestOptions o, LoadOutcome outcome, OperatingPoint point) {
    return String.format(
        Locale.ROOT,
        "%s; gateway %s; %d connections, %s, %d B payload; %s per arm, each after a"
            + " warm-up to steady state (%s, at most %.0f s), %.1f s recorded, idle window %.1f s;"
            + " %s of a %s budget.",
        ZonedDateTime.now().format(WHEN),
        o.gateway().describe(),
        o.load().connections(),
        outcome.rate() > 0
            ? point.rates() + " offered (fixed rate, latency from the intended send time)"
            : "maximum throughput",
        o.load().payloadBytes(),
        (o.search().extend() ? "at least " : "")
            + Sentences.trials(o.repeats())
            + (o.search().extend() ? " (rounds more while the budget had room)" : ""),
        SteadyState.RULE,
        o.load().warmup().toMillis() / 1e3,
        o.load().duration().toMillis() / 1e3,
        o.search().idleWindow().toMillis() / 1e3,
        LoadTest.human(outcome.elapsed()),
        LoadTest.human(o.search().budget()));
  }

  /**
   * What the capacity chart says beside an arm's bar, or in its empty slot: where no probed rate
   * met the SLO ("out of reach" where the ramp went down to its floor), or no trial was usable.
   */
  static String capacityRemark(ScenarioSummary s) {
    List<CapacityRamp.Result> r = s.trials().stream().map(Trial::capacity).toList();
    if (r.isEmpty()) {
      return "no usable\ntrial";
    }
    long below = r.stream().filter(c -> c.rate() == 0).count();
    String lowest =
        String.format(
            Locale.ROOT,
            "< %,d",
            r.stream()
                .filter(c -> c.rate() == 0)
                .mapToLong(CapacityRamp.Result::lowest)
                .min()
                .orElse(0));
    if (below == r.size()) {
      return (r.stream().allMatch(CapacityRamp.Result::outOfReach) ? "out of reach\n" : "none\n")
          + lowest;
    }
    return below == 0 ? "" : below + " of " + r.size() + "\n" + lowest;
  }

  private static void charts(StringBuilder h, LoadTestOptions o, List<ScenarioSummary> s) {
    h.append(SvgCharts.latencyChart(s));
    h.append(
        SvgCharts.bars(s, "server CPU per message", "CPU µs per message", Trial::cpuUsPerMessage));
    h.append(
        SvgCharts.bars(
            s, "server CPU at the offered rate", "CPU % (100 = one CPU)", Trial::serverCpuPercent));
    h.append(
        SvgCharts.bars(
            s,
            "capacity: the highest rate with p99 under " + o.search().slo().toMillis() + " ms",
            "msg/s",
            t -> t.capacity().rate() == 0 ? Double.NaN : t.capacityRate(),
            HtmlReport::capacityRemark));
    h.append(
        SvgCharts.bars(
            s, "server context switches", "switches per message", Trial::switchesPerMessage));
    h.append(
        SvgCharts.bars(s, "server CPU while idle", "CPU % (100 = one CPU)", Trial::idleCpuPercent));
  }
}
