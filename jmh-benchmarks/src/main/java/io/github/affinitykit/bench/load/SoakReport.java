package io.github.affinitykit.bench.load;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The soak's report: a summary on the console and in {@code soak.txt}, every sample in {@code
 * samples.csv}, and {@code soak.html} with one chart per resource and the p99 of each minute.
 *
 * <p>Thread safety: stateless.
 */
final class SoakReport {
  private static final int W = 640;
  private static final int H = 180;
  private static final int PAD = 40;

  private SoakReport() {}

  /** Prints the summary to {@code console} and writes the three files into the soak's out. */
  static void write(SoakResult r, PrintStream console) throws IOException {
    List<String> lines = summary(r);
    lines.forEach(console::println);
    Files.write(r.options().out().resolve("soak.txt"), lines, StandardCharsets.UTF_8);
    Files.write(r.options().out().resolve("samples.csv"), csv(r), StandardCharsets.UTF_8);
    Files.writeString(r.options().out().resolve("soak.html"), html(r, lines));
    console.println("soak: report in " + r.options().out().resolve("soak.html"));
  }

  static List<String> summary(SoakResult r) {
    SoakOptions o = r.options();
    List<String> out = new ArrayList<>();
    out.add(
        String.format(
            Locale.ROOT,
            "soak: %s at %d msg/s on %d connections, --pin %s, heap %s;"
                + " %.1f client cycles/s, %d%% hostile",
            o.duration(),
            o.rate(),
            o.connections(),
            o.pin(),
            o.heap(),
            o.churnPerSecond(),
            o.hostilePercent()));
    LoadResult s = r.steady();
    out.add(
        String.format(
            Locale.ROOT,
            "steady: %d sent, %d echoed, %d lost, %d out of order, %d errors; p99 %.0f µs",
            s.sent(),
            s.received(),
            s.lost(),
            s.outOfOrder(),
            s.errors(),
            s.latencyUs(99)));
    out.add(
        String.format(
            Locale.ROOT,
            "p99 per minute (µs): %s",
            r.p99PerMinuteUs().stream().map(v -> String.format(Locale.ROOT, "%.0f", v)).toList()));
    out.add(
        String.format(
            "well-behaved clients: %d cycles, %d echoes, %d broadcasts, %d lost",
            r.cycles(), r.echoes(), r.broadcasts(), r.lostCycles()));
    out.add("hostile clients (answered as their kind calls for / run): " + hostile(r));
    r.trends().forEach(t -> out.add("  " + t.line()));
    if (r.trends().stream().anyMatch(t -> t.verdict() == SoakTrend.Verdict.UNJUDGED)) {
      out.add(
          "  (the resident set is judged from "
              + SoakTrend.RSS_JUDGED_FROM.toMinutes()
              + " minutes recorded: the JIT's warm-up grows it for minutes)");
    }
    out.add("threads whose mask moved: " + r.masksChanged());
    List<String> failures = r.failures();
    out.add(failures.isEmpty() ? "soak: PASSED" : "soak: FAILED: " + String.join("; ", failures));
    return out;
  }

  private static String hostile(SoakResult r) {
    List<String> parts = new ArrayList<>();
    r.hostile()
        .forEach(
            (k, v) ->
                parts.add(k.name().toLowerCase(Locale.ROOT) + " " + r.answered().get(k) + "/" + v));
    return String.join(", ", parts);
  }

  private static List<String> csv(SoakResult r) {
    List<String> out = new ArrayList<>();
    out.add(
        "seconds,rss_bytes,heap_after_gc_bytes,direct_bytes,non_heap_bytes,fds,threads,cpus,"
            + "masks_changed");
    for (SoakSample s : r.samples()) {
      out.add(
          String.format(
              Locale.ROOT,
              "%.1f,%d,%d,%d,%d,%d,%d,\"%s\",%d",
              s.seconds(),
              s.rssBytes(),
              s.heapAfterGcBytes(),
              s.directBytes(),
              s.nonHeapBytes(),
              s.fds(),
              s.threads(),
              s.cpus(),
              s.masksChanged()));
    }
    return out;
  }

  private static String html(SoakResult r, List<String> lines) {
    StringBuilder b = new StringBuilder();
    b.append("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Affinity Kit soak</title>")
        .append("<style>body{font-family:sans-serif;max-width:1400px;margin:1em auto}")
        .append("pre{background:#f6f6f6;padding:.5em;white-space:pre-wrap}")
        .append("svg{margin:.3em;border:1px solid #ddd}")
        .append("</style></head><body><h1>Affinity Kit soak</h1><pre>");
    lines.forEach(l -> b.append(SvgCharts.esc(l)).append('\n'));
    b.append("</pre><div>");
    List<Double> xs = r.samples().stream().map(s -> s.seconds() / 60).toList();
    for (SoakSample.Resource res : SoakSample.Resource.values()) {
      List<Double> ys = r.samples().stream().map(res::of).toList();
      String unit = res.unit().isEmpty() ? "" : " (" + res.unit() + ")";
      b.append(chart(res.label() + unit, xs, ys));
    }
    List<Double> minutes = new ArrayList<>();
    for (int i = 1; i <= r.p99PerMinuteUs().size(); i++) {
      minutes.add((double) i);
    }
    b.append(chart("p99 of each minute (µs)", minutes, r.p99PerMinuteUs()));
    return b.append("</div></body></html>\n").toString();
  }

  /**
   * A line chart of {@code ys} over {@code xs} (minutes), its y axis the data's own range (labelled
   * at both ends); NaN values are left out.
   */
  static String chart(String title, List<Double> xs, List<Double> ys) {
    double x0 = 0;
    double x1 = 1;
    double y0 = Double.POSITIVE_INFINITY;
    double y1 = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < xs.size(); i++) {
      if (!Double.isNaN(ys.get(i))) {
        x1 = Math.max(x1, xs.get(i));
        y0 = Math.min(y0, ys.get(i));
        y1 = Math.max(y1, ys.get(i));
      }
    }
    if (y0 > y1) {
      y0 = 0;
      y1 = 1;
    }
    double pad = Math.max((y1 - y0) * 0.05, Math.abs(y1) * 0.01 + 1e-9); // the data's own range:
    y0 -= pad; // a few MiB of growth on 365 stays visible, and the axis says where it starts
    y1 += pad;
    StringBuilder pts = new StringBuilder();
    for (int i = 0; i < xs.size(); i++) {
      if (!Double.isNaN(ys.get(i))) {
        double x = PAD + (xs.get(i) - x0) / (x1 - x0) * (W - 2 * PAD);
        double y = H - PAD + 10 - (ys.get(i) - y0) / (y1 - y0) * (H - 2 * PAD);
        pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
      }
    }
    return String.format(
        Locale.ROOT,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\">"
            + "<text x=\"%d\" y=\"16\" font-size=\"13\">%s</text>"
            + "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>"
            + "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>"
            + "<text x=\"2\" y=\"%d\" font-size=\"10\">%.4g</text>"
            + "<text x=\"2\" y=\"%d\" font-size=\"10\">%.4g</text>"
            + "<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"end\">%.1f min</text>"
            + "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" points=\"%s\"/></svg>",
        W,
        H,
        PAD,
        SvgCharts.esc(title),
        PAD,
        H - PAD + 10,
        W - PAD,
        H - PAD + 10,
        PAD,
        PAD - 10,
        PAD,
        H - PAD + 10,
        PAD - 6,
        y1,
        H - PAD + 10,
        y0,
        W - PAD,
        H - 8,
        x1,
        pts.toString().trim());
  }
}
