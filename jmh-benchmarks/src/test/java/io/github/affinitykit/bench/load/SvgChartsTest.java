package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The charts' geometry: everything drawn stays inside the chart's frame, below its title. */
class SvgChartsTest {
  private static final Pattern SIZE =
      Pattern.compile("<svg [^>]*width=\"(\\d+)\" height=\"(\\d+)\"");
  private static final Pattern COORD = Pattern.compile(" (x|x1|x2|y|y1|y2)=\"(-?[0-9.]+)\"");
  private static final Pattern RECT =
      Pattern.compile(
          "<rect x=\"[-0-9.]+\" y=\"(-?[0-9.]+)\" width=\"[-0-9.]+\" height=\"(-?[0-9.]+)\"");
  private static final Pattern TEXT = Pattern.compile("<text [^>]*>([^<]*)</text>");

  @Test
  void shouldKeepBarsAndValuesInsideTheFrameWhenAnArmReadsNone() {
    // quiet run 2 of the issue: the capacity ramp found no rate for some arms (capacity 0 = none)
    for (List<Scenario> order :
        List.of(
            List.of(Scenario.UNPINNED, Scenario.PINNED, Scenario.EXCLUSIVE),
            List.of(Scenario.PINNED, Scenario.UNPINNED, Scenario.EXCLUSIVE))) {
      List<ScenarioSummary> s = new ArrayList<>();
      for (Scenario arm : order) {
        long capacity = arm == Scenario.PINNED ? 0 : arm == Scenario.UNPINNED ? 41_000 : 52_500;
        List<Trial> trials = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
          trials.add(Trials.of(arm, r, 20, 3_000, capacity == 0 ? 0 : capacity + r * 1_000L, 70));
        }
        s.add(ScenarioSummary.of(arm, trials));
      }

      String svg =
          SvgCharts.bars(
              s,
              "capacity",
              "msg/s",
              t -> t.capacity().rate() == 0 ? Double.NaN : t.capacityRate());

      assertInsideFrame(svg);
      assertThat(texts(svg)).contains("none", "42,000", "53,500");
    }
  }

  @Test
  void shouldKeepTheLatencyChartInsideTheFrame() {
    List<ScenarioSummary> s = new ArrayList<>();
    for (Scenario arm : List.of(Scenario.UNPINNED, Scenario.PINNED)) {
      s.add(ScenarioSummary.of(arm, List.of(Trials.of(arm, 0, 20, 35_000, 40_000, 70))));
    }
    assertInsideFrame(SvgCharts.latencyChart(s));
  }

  private static void assertInsideFrame(String svg) {
    Matcher size = SIZE.matcher(svg);
    assertThat(size.find()).as("svg size in %s", svg).isTrue();
    double w = Double.parseDouble(size.group(1));
    double h = Double.parseDouble(size.group(2));
    Matcher c = COORD.matcher(svg);
    int seen = 0;
    while (c.find()) {
      double v = Double.parseDouble(c.group(2));
      double limit = c.group(1).startsWith("x") ? w : h;
      assertThat(v).as("%s=%s in a %sx%s chart", c.group(1), v, w, h).isBetween(0.0, limit);
      seen++;
    }
    assertThat(seen).isGreaterThan(10);
    Matcher r = RECT.matcher(svg);
    while (r.find()) {
      // a bar starts below the title line (y = 18) and never has a negative height
      assertThat(Double.parseDouble(r.group(1))).as("bar top").isGreaterThan(24.0);
      assertThat(Double.parseDouble(r.group(2))).as("bar height").isNotNegative();
    }
  }

  private static List<String> texts(String svg) {
    List<String> out = new ArrayList<>();
    Matcher t = TEXT.matcher(svg);
    while (t.find()) {
      out.add(t.group(1));
    }
    return out;
  }
}
