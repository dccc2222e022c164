package io.github.affinitykit.bench.load;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The report's charts as inline SVG: latency by percentile, and bars (median with the trials'
 * range) per scenario; every chart has labelled axes with units.
 *
 * <p>Thread safety: stateless.
 */
final class SvgCharts {
  private static final String[] COLORS = {
    "#d62728", "#e377c2", "#8c564b", "#7f7f7f", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e"
  };
  private static final int W = 620;
  private static final int H = 300;
  private static final int PAD = 56;

  private SvgCharts() {}

  /** Latency (log µs) against percentile on a "nines" axis: x = log10(1 / (1 - p)). */
  static String latencyChart(List<ScenarioSummary> s) {
    double max = 1;
    for (ScenarioSummary x : s) {
      max = Math.max(max, x.latencyNs().getValueAtPercentile(99.999) / 1e3);
    }
    double top = Math.max(10, Math.pow(10, Math.ceil(Math.log10(max))));
    StringBuilder g = svgStart("latency by percentile", "latency (µs, log scale)", "percentile");
    for (int d = 0; Math.pow(10, d) <= top; d++) {
      double y = ly(Math.pow(10, d), top);
      g.append(line(PAD, y, W - 10, y, "#eee"))
          .append(text(PAD - 6, y + 4, fmt(Math.pow(10, d)), "end"));
    }
    String[] ticks = {"0", "90", "99", "99.9", "99.99", "99.999"};
    for (int i = 0; i < ticks.length; i++) {
      double x = PAD + (W - PAD - 40) * i / 5.0;
      g.append(text(x, H - PAD + 16, ticks[i] + (i == 0 ? "" : "%"), "middle"));
    }
    for (int i = 0; i < s.size(); i++) {
      if (s.get(i).latencyNs().getTotalCount() == 0) { // no usable trial: said, not drawn at 1 µs
        g.append(legend(i, s.get(i), " (no usable trial)"));
        continue;
      }
      StringBuilder pts = new StringBuilder();
      for (double p : ScenarioSummary.percentiles()) {
        double v = Math.max(1, s.get(i).latencyNs().getValueAtPercentile(p) / 1e3);
        double nines = Math.log10(1 / (1 - p / 100.0));
        double x = PAD + (W - PAD - 40) * Math.min(5, nines) / 5.0;
        pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, ly(v, top)));
      }
      g.append("<polyline fill=\"none\" stroke-width=\"2\" stroke=\"")
          .append(color(s.get(i)))
          .append("\" points=\"")
          .append(pts)
          .append("\"/>");
      g.append(legend(i, s.get(i), ""));
    }
    return g.append("</svg>").toString();
  }

  /**
   * Bars of {@code metric} per arm (median, a whisker over the trials' range, the median's value
   * above); an arm without a value is an empty, labelled slot, never a bar.
   */
  static String bars(
      List<ScenarioSummary> s, String title, String yAxis, ToDoubleFunction<Trial> metric) {
    return bars(s, title, yAxis, metric, x -> x.trials().isEmpty() ? "no usable\ntrial" : "");
  }

  /**
   * As {@link #bars(List, String, String, ToDoubleFunction)}, with {@code remark} for each arm: the
   * empty slot's text where the arm has no value, else lines above its value ("" for none); lines
   * split at {@code \n}.
   */
  static String bars(
      List<ScenarioSummary> s,
      String title,
      String yAxis,
      ToDoubleFunction<Trial> metric,
      Function<ScenarioSummary, String> remark) {
    double max = 0;
    for (ScenarioSummary x : s) {
      double top = x.stats(metric)[2];
      if (Double.isFinite(top)) { // an arm with no value must not blank the scale
        max = Math.max(max, top);
      }
    }
    max = max <= 0 ? 1 : max * 1.15;
    StringBuilder g = svgStart(title, yAxis, "arm");
    double slot = (W - PAD - 10.0) / Math.max(1, s.size());
    for (int i = 0; i < s.size(); i++) {
      ScenarioSummary arm = s.get(i);
      double[] st = arm.stats(metric);
      double cx = PAD + slot * (i + 0.5);
      g.append("<g class=\"arm\" data-arm=\"").append(esc(name(arm))).append("\">");
      g.append(text(cx, H - PAD + 16, name(arm), "middle"));
      if (Double.isNaN(st[0])) { // no value: an empty slot that says why, not a bar from 0
        g.append(
            String.format(
                Locale.ROOT,
                "<rect class=\"empty\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\""
                    + " fill=\"none\" stroke=\"#bbb\" stroke-dasharray=\"4 3\"/>",
                cx - slot * 0.35,
                PAD,
                slot * 0.7,
                H - 2 * PAD));
        String why = remark.apply(arm);
        lines(g, cx, H / 2.0, why.isEmpty() ? "none" : why, "empty");
        g.append("</g>");
        continue;
      }
      double y = yOf(st[0], max);
      g.append(
          String.format(
              Locale.ROOT,
              "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\""
                  + " fill=\"%s\"/>",
              cx - slot * 0.3,
              y,
              slot * 0.6,
              H - PAD - y,
              color(arm)));
      g.append(line(cx, yOf(st[1], max), cx, yOf(st[2], max), "#000"));
      double top = Math.min(y, yOf(st[2], max)) - 6;
      g.append(text(cx, top, fmt(st[0]), "middle", "value"));
      String more = remark.apply(arm);
      if (!more.isEmpty()) {
        long n = more.lines().count();
        lines(g, cx, top - 13 * n, more, "remark");
      }
      g.append("</g>");
    }
    return g.append("</svg>").toString();
  }

  /** {@code text}'s lines, 13 px apart from {@code y} down, centred on {@code x}. */
  private static void lines(StringBuilder g, double x, double y, String text, String cls) {
    List<String> l = text.lines().toList();
    for (int i = 0; i < l.size(); i++) {
      g.append(text(x, y + 13 * i, l.get(i), "middle", cls));
    }
  }

  private static double yOf(double v, double max) {
    return H - PAD - (H - 2 * PAD) * v / max;
  }

  private static StringBuilder svgStart(String title, String yAxis, String xAxis) {
    StringBuilder g = new StringBuilder();
    g.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
        .append(W)
        .append("\" height=\"")
        .append(H)
        .append("\" font-size=\"11\">")
        .append(text(W / 2.0, 18, title, "middle"))
        .append(text(W / 2.0, H - 8, xAxis, "middle"))
        .append(
            String.format(
                Locale.ROOT,
                "<text x=\"14\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 14 %d)\">%s</text>",
                H / 2,
                H / 2,
                esc(yAxis)))
        .append(line(PAD, H - PAD, W - 10, H - PAD, "#000"))
        .append(line(PAD, PAD, PAD, H - PAD, "#000"));
    return g;
  }

  private static String legend(int i, ScenarioSummary s, String note) {
    double y = PAD + 14 * i;
    return line(PAD + 10, y, PAD + 30, y, color(s))
        + text(PAD + 34, y + 4, name(s) + note, "start");
  }

  /** An arm keeps its colour in every report, whichever arms ran. */
  private static String color(ScenarioSummary s) {
    return COLORS[s.scenario().ordinal() % COLORS.length];
  }

  private static double ly(double v, double top) {
    return H - PAD - (H - 2 * PAD) * Math.log10(Math.max(1, v)) / Math.log10(top);
  }

  private static String line(double x1, double y1, double x2, double y2, String color) {
    return String.format(
        Locale.ROOT,
        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.5\"/>",
        x1,
        y1,
        x2,
        y2,
        color);
  }

  private static String text(double x, double y, String t, String anchor) {
    return text(x, y, t, anchor, "");
  }

  private static String text(double x, double y, String t, String anchor, String cls) {
    return String.format(
        Locale.ROOT,
        "<text%s x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>",
        cls.isEmpty() ? "" : " class=\"" + cls + "\"",
        x,
        y,
        anchor,
        esc(t));
  }

  private static String name(ScenarioSummary s) {
    return s.scenario().label();
  }

  private static String fmt(double v) {
    return v >= 100
        ? String.format(Locale.ROOT, "%,.0f", v)
        : String.format(Locale.ROOT, "%.2g", v);
  }

  static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
