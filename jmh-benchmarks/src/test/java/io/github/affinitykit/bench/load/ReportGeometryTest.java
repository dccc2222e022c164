package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/**
 * The report of a run like the quiet run 2, drawn right: p99 over the SLO at the operating
 * point, so that arms read "out of reach", "below the lowest rate probed" or have no usable trial.
 * Renders {@code report.html} from trials built of the result types, parses every chart's SVG and
 * checks its geometry: everything inside its frame and below its title, every bar with its value
 * and range, every arm without a value an empty slot that says why, arm labels apart. The report is
 * left in {@code target/report-geometry/} to be looked at in a browser.
 */
class ReportGeometryTest {
  private static final Pattern SVG = Pattern.compile("<svg .*?</svg>", Pattern.DOTALL);
  private static final double TITLE_BOTTOM = 24; // the title's baseline is y = 18
  private static final double CHAR_PX = 11 * 0.62; // a generous sans-serif glyph at 11 px

  @Test
  void shouldDrawEveryChartInsideItsFrameWhenArmsReadNone() throws Exception {
    Path out = Files.createDirectories(Path.of("target", "report-geometry"));
    LoadTestOptions o = LoadReportTest.options(out);

    LoadReport.write(o, quietRun2(), new PrintStream(new ByteArrayOutputStream(), true, "UTF-8"));

    String html = Files.readString(out.resolve("report.html"), StandardCharsets.UTF_8);
    assertThat(html)
        .contains("The p99 SLO (5 ms) is out of reach on this machine in 4 of 18 usable trials")
        .contains("down to 1,828 msg/s; where it was met, the highest rate that met it was");
    Matcher m = SVG.matcher(html);
    List<Element> charts = new ArrayList<>();
    while (m.find()) {
      charts.add(parse(m.group()));
    }
    assertThat(charts).hasSize(6);
    charts.forEach(ReportGeometryTest::assertInsideFrame);
    Element capacity = charts.get(3);
    assertThat(text(capacity, 0)).startsWith("capacity");
    assertThat(slotText(capacity, "pinned")).isEqualTo("out of reach < 1,828");
    assertThat(slotText(capacity, "exclusive")).isEqualTo("no usable trial");
    assertThat(slotText(capacity, "pinned-spin")).isEqualTo("none < 7,312");
    assertThat(remark(capacity, "unpinned")).isEqualTo("1 of 3 < 1,828");
    assertThat(html)
        .contains("pinned used the same CPU per message")
        .contains("p99 stayed over the SLO down to the ramp's floor (1,828 msg/s) in every trial");
    assertThat(slotText(charts.get(1), "exclusive")).isEqualTo("no usable trial");
    assertThat(remark(charts.get(1), "unpinned")).isEmpty(); // a bar's value stands alone
    assertThat(texts(charts.get(0))).contains("exclusive (no usable trial)");
  }

  /** Seven arms; pinned out of reach, pinned-spin below what the budget let it probe. */
  private static LoadOutcome quietRun2() {
    CapacityRamp.Result outOfReach =
        new CapacityRamp.Result(
            0,
            false,
            List.of(
                new CapacityRamp.Step(58_500, false),
                new CapacityRamp.Step(29_250, false),
                new CapacityRamp.Step(1_828, false)),
            true);
    CapacityRamp.Result budgetCut =
        new CapacityRamp.Result(
            0,
            false,
            List.of(new CapacityRamp.Step(58_500, false), new CapacityRamp.Step(7_312, false)));
    List<Trial> trials = new ArrayList<>();
    for (int r = 0; r < 3; r++) {
      for (Scenario s : Scenario.values()) {
        double cpuUs = (20 + r * 0.4) * (s == Scenario.HANDICAPPED ? 1.23 : 1);
        Trial t = Trials.of(s, r, cpuUs, 12_000 + 9_000L * r, 14_625 + 500L * r, 71);
        if (s == Scenario.PINNED || (s == Scenario.UNPINNED && r == 1)) {
          t = Trials.capacity(t, outOfReach);
        } else if (s == Scenario.PINNED_SPIN) {
          t = Trials.capacity(t, budgetCut);
        } else if (s == Scenario.EXCLUSIVE) {
          t = Trials.disturbed(t);
        }
        trials.add(t);
      }
    }
    return new LoadOutcome(
        LoadReportTest.host(LoadReportTest.options(Path.of("."))),
        Optional.empty(),
        58_500,
        List.of(Scenario.values()),
        trials,
        List.of(),
        Handicap.threads(0.16),
        false,
        Duration.ofSeconds(480));
  }

  private static void assertInsideFrame(Element svg) {
    double w = Double.parseDouble(svg.getAttribute("width"));
    double h = Double.parseDouble(svg.getAttribute("height"));
    String title = text(svg, 0);
    NodeList all = svg.getElementsByTagName("*");
    for (int i = 0; i < all.getLength(); i++) {
      Element e = (Element) all.item(i);
      String what = title + ": <" + e.getTagName() + " " + e.getAttribute("class") + ">";
      switch (e.getTagName()) {
        case "rect" -> {
          double x = num(e, "x");
          double y = num(e, "y");
          assertThat(num(e, "height")).as(what + " height").isNotNegative();
          assertThat(x).as(what + " x").isBetween(0.0, w - num(e, "width"));
          assertThat(y)
              .as(what + " top, below the title")
              .isBetween(TITLE_BOTTOM, h - num(e, "height"));
        }
        case "line" -> {
          for (String a : List.of("x1", "x2")) {
            assertThat(num(e, a)).as(what + " " + a).isBetween(0.0, w);
          }
          for (String a : List.of("y1", "y2")) {
            assertThat(num(e, a)).as(what + " " + a).isBetween(TITLE_BOTTOM, h);
          }
        }
        case "polyline" -> {
          for (String p : e.getAttribute("points").trim().split("\\s+")) {
            String[] xy = p.split(",");
            assertThat(Double.parseDouble(xy[0])).as(what + " x").isBetween(0.0, w);
            assertThat(Double.parseDouble(xy[1])).as(what + " y").isBetween(TITLE_BOTTOM, h);
          }
        }
        case "text" -> assertTextInside(e, e == first(svg, "text") ? 11 : TITLE_BOTTOM + 9, w, h);
        default -> {}
      }
    }
    NodeList arms = svg.getElementsByTagName("g");
    double lastRight = 0;
    for (int i = 0; i < arms.getLength(); i++) {
      Element arm = (Element) arms.item(i);
      String name = arm.getAttribute("data-arm");
      Element label = first(arm, "text");
      assertThat(label.getTextContent()).as(title + ": label").isEqualTo(name);
      double[] span = span(label);
      assertThat(span[0])
          .as(title + ": " + name + "'s label clear of the one before")
          .isGreaterThan(lastRight);
      lastRight = span[1];
      Element bar = byClass(arm, "rect", "bar");
      if (bar == null) {
        assertThat(byClass(arm, "rect", "empty")).as(title + ": " + name + " slot").isNotNull();
        assertThat(byClass(arm, "text", "empty")).as(title + ": " + name + " says why").isNotNull();
        continue;
      }
      Element value = byClass(arm, "text", "value");
      assertThat(value).as(title + ": " + name + "'s value").isNotNull();
      assertThat(value.getTextContent()).as(title + ": " + name + "'s value").isNotBlank();
      Element range = first(arm, "line");
      assertThat(range).as(title + ": " + name + "'s range").isNotNull();
      double top = Math.min(num(bar, "y"), Math.min(num(range, "y1"), num(range, "y2")));
      assertThat(num(value, "y"))
          .as(title + ": " + name + "'s value above its bar")
          .isLessThan(top);
    }
  }

  /**
   * A text's estimated box (its baseline at y, 11 px high) inside the frame, below {@code minY}.
   */
  private static void assertTextInside(Element t, double minY, double w, double h) {
    String what = "text '" + t.getTextContent() + "'";
    double y = num(t, "y");
    if (!t.getAttribute("transform").isEmpty()) { // the rotated y-axis title: its centre
      assertThat(y).as(what).isBetween(0.0, h);
      return;
    }
    assertThat(y).as(what + " baseline").isBetween(minY, h - 2);
    double[] span = span(t);
    assertThat(span[0]).as(what + " left").isGreaterThanOrEqualTo(0);
    assertThat(span[1]).as(what + " right").isLessThanOrEqualTo(w);
  }

  private static double[] span(Element t) {
    double x = num(t, "x");
    double len = t.getTextContent().length() * CHAR_PX;
    return switch (t.getAttribute("text-anchor")) {
      case "middle" -> new double[] {x - len / 2, x + len / 2};
      case "end" -> new double[] {x - len, x};
      default -> new double[] {x, x + len};
    };
  }

  private static String slotText(Element svg, String arm) {
    return joined(arm(svg, arm), "empty");
  }

  private static String remark(Element svg, String arm) {
    return joined(arm(svg, arm), "remark");
  }

  private static String joined(Element g, String cls) {
    List<String> parts = new ArrayList<>();
    NodeList t = g.getElementsByTagName("text");
    for (int i = 0; i < t.getLength(); i++) {
      if (((Element) t.item(i)).getAttribute("class").equals(cls)) {
        parts.add(t.item(i).getTextContent());
      }
    }
    return String.join(" ", parts);
  }

  private static Element arm(Element svg, String name) {
    NodeList g = svg.getElementsByTagName("g");
    for (int i = 0; i < g.getLength(); i++) {
      if (((Element) g.item(i)).getAttribute("data-arm").equals(name)) {
        return (Element) g.item(i);
      }
    }
    throw new AssertionError("no arm " + name);
  }

  private static Element byClass(Element parent, String tag, String cls) {
    NodeList n = parent.getElementsByTagName(tag);
    for (int i = 0; i < n.getLength(); i++) {
      if (((Element) n.item(i)).getAttribute("class").equals(cls)) {
        return (Element) n.item(i);
      }
    }
    return null;
  }

  private static Element first(Element parent, String tag) {
    NodeList n = parent.getElementsByTagName(tag);
    return n.getLength() == 0 ? null : (Element) n.item(0);
  }

  private static String text(Element svg, int i) {
    return svg.getElementsByTagName("text").item(i).getTextContent();
  }

  private static List<String> texts(Element svg) {
    List<String> out = new ArrayList<>();
    NodeList n = svg.getElementsByTagName("text");
    for (int i = 0; i < n.getLength(); i++) {
      out.add(n.item(i).getTextContent());
    }
    return out;
  }

  private static double num(Element e, String attribute) {
    return Double.parseDouble(e.getAttribute(attribute));
  }

  private static Element parse(String svg) throws Exception {
    return DocumentBuilderFactory.newInstance()
        .newDocumentBuilder()
        .parse(new InputSource(new StringReader(svg)))
        .getDocumentElement();
  }
}
