package io.github.affinitykit.bench.load;

import static io.github.affinitykit.bench.load.SvgCharts.esc;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A self-contained HTML page (inline SVG, no network assets), in the order a reader needs it: the
 * verdict, the host facts that decide it, the charts (labelled axes, units), then the table.
 *
 * <p>Thread safety: stateless.
 */
final class HtmlReport {
  /** Human-readable timestamps: {@code 2026-11-23 14:05:09 UTC}. */
  static final DateTimeFormatter WHEN =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss zzz", Locale.ROOT);

  private HtmlReport() {}

  static String render(
      LoadTestOptions o,
      LoadOutcome outcome,
      List<ScenarioSummary> s,
      String verdict,
      String table) {
    StringBuilder h = new StringBuilder();
    h.append(
            "<!doctype html><html><head><meta charset=\"utf-8\"><title>Affinity Kit gateway load test</title>")
        .append("<style>body{font-family:sans-serif;margin:24px;max-width:1400px}")
        .append("pre{background:#f6f6f6;padding:12px;font-size:12px}")
        .append("td{padding:2px 12px 2px 0}")
        .append(".charts{display:flex;flex-wrap:wrap;gap:16px}svg{border:1px solid #ddd}</style>")
        .append("</head><body><h1>Gateway load test: what pinning buys</h1>")
        .append("<h2 id=\"verdict\">Verdict</h2><pre>")
        .append(esc(verdict))
        .append("</pre><h2 id=\"host\">Host</h2><table>");
    for (Map.Entry<String, String> e : outcome.host().rows().entrySet()) {
      h.append("<tr><td>").append(esc(e.getKey())).append("</td><td>");
      h.append(esc(e.getValue())).append("</td></tr>");
    }
    h.append("</table><p>")
        .append(esc(ZonedDateTime.now().format(WHEN)))
        .append(" &middot; gateway ")
        .append(esc(o.gateway().describe()))
        .append(" &middot; ")
        .append(o.load().connections())
        .append(" connections, ")
        .append(
            outcome.rate() > 0
                ? String.format(Locale.ROOT, "%,d", outcome.rate())
                    + " msg/s offered (fixed rate, latency from intended send time)"
                : "maximum throughput")
        .append(", ")
        .append(o.load().payloadBytes())
        .append(" B payload, ")
        .append(o.repeats())
        .append(" interleaved repeats of ")
        .append(o.load().duration().toMillis() / 1e3)
        .append(" s, idle window ")
        .append(o.search().idleWindow().toMillis() / 1e3)
        .append(" s</p><h2 id=\"charts\">Charts</h2><div class=\"charts\">");
    h.append(SvgCharts.latencyChart(s));
    h.append(
        SvgCharts.bars(s, "server CPU per message", "CPU µs per message", Trial::cpuUsPerMessage));
    h.append(
        SvgCharts.bars(s, "server CPU while idle", "CPU % (100 = one CPU)", Trial::idleCpuPercent));
    h.append(
        SvgCharts.bars(
            s, "server context switches", "switches per message", Trial::switchesPerMessage));
    h.append(
        SvgCharts.bars(
            s,
            "capacity (p99 under " + o.search().slo().toMillis() + " ms)",
            "msg/s",
            Trial::capacityRate));
    h.append(
        SvgCharts.bars(
            s, "server CPU at the offered rate", "CPU % (100 = one CPU)", Trial::serverCpuPercent));
    h.append(
            "</div><h2 id=\"table\">Table (median [min-max] of the clean trials; the curves merge their histograms)</h2><pre>")
        .append(esc(table))
        .append("</pre></body></html>\n");
    return h.toString();
  }
}
