package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.CpuSet;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reports on synthetic trials: the verdict comes first, on screen and in the HTML. */
class LoadReportTest {
  @Test
  void shouldPutTheVerdictFirstThenHostFactsChartsAndTable(@TempDir Path out) throws Exception {
    LoadTestOptions o = options(out);
    List<Trial> trials = new ArrayList<>();
    long[] pinnedP99 = {3_300, 2_900, 3_050}; // overlaps unpinned's 3,000-3,200
    for (int r = 0; r < 3; r++) {
      trials.add(trial(Scenario.UNPINNED, r, 21.4 + r * 0.2, 3_000 + r * 100, 40_000));
      trials.add(trial(Scenario.PINNED, r, 17.5 + r * 0.2, pinnedP99[r], 52_000));
    }
    LoadOutcome outcome =
        new LoadOutcome(
            host(o),
            Optional.of(
                new Calibration.Result(
                    80,
                    new Calibration.Point(37_500, 79.1),
                    List.of(new Calibration.Point(20_000, 45), new Calibration.Point(37_500, 79.1)),
                    "within 3 points")),
            37_500,
            List.of(Scenario.UNPINNED, Scenario.PINNED),
            trials,
            List.of());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    LoadReport.write(o, outcome, new PrintStream(bytes, true, StandardCharsets.UTF_8));

    String screen = bytes.toString(StandardCharsets.UTF_8);
    assertThat(screen)
        .startsWith("Verdict at 37,500 msg/s offered (calibrated: unpinned server at 79.1% CPU")
        .contains("pinned used 18% less CPU per message [")
        .contains("pinned vs unpinned, p99: no difference within noise at n=3")
        .contains("pinned sustained 30% more load with p99 under the SLO [")
        .contains(Verdict.METHOD);
    assertThat(screen.indexOf("Host: CPUs")).isGreaterThan(screen.indexOf(Verdict.METHOD));
    assertThat(screen.indexOf("scenario ")).isGreaterThan(screen.indexOf("Host: CPUs"));
    String html = Files.readString(out.resolve("report.html"));
    int verdict = html.indexOf("id=\"verdict\"");
    int hostFacts = html.indexOf("id=\"host\"");
    int charts = html.indexOf("<svg");
    int table = html.indexOf("id=\"table\"");
    assertThat(verdict).isPositive().isLessThan(hostFacts);
    assertThat(hostFacts).isLessThan(charts);
    assertThat(charts).isLessThan(table);
    assertThat(html)
        .contains("pinned used 18% less CPU per message")
        .contains("isolated CPUs</td><td>none")
        .contains("CPU µs per message")
        .contains("percentile")
        .containsPattern("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} ");
    assertThat(Files.readString(out.resolve("results.json")))
        .contains("\"outcome\" : \"LOWER\"")
        .contains("\"rate\" : 37500");
  }

  private static LoadTestOptions options(Path out) {
    return new LoadTestOptions(
        new GatewayLaunch("java", "", "gw.jar"),
        List.of(Scenario.UNPINNED, Scenario.PINNED),
        3,
        new LoadConfig(
            URI.create("ws://127.0.0.1:1/ws"),
            50,
            128,
            Duration.ZERO,
            Duration.ofSeconds(6),
            0,
            8,
            1),
        LoadSearch.of(false, true, 80, Duration.ofMillis(5), 3),
        CpuSet.of(1),
        CpuSet.of(0),
        CpuSet.empty(),
        List.of(),
        out,
        10,
        100);
  }

  private static HostFacts host(LoadTestOptions o) {
    return new HostFacts(
        CpuSet.of(0, 1),
        2,
        false,
        1,
        CpuSet.empty(),
        o.serverCpus(),
        o.clientCpus(),
        CpuSet.empty(),
        "Linux 6.18",
        "JDK 17");
  }

  private static Trial trial(Scenario s, int repeat, double cpuUs, long p99Us, long capacity) {
    Histogram h = new Histogram(3);
    for (int i = 0; i < 100; i++) {
      h.recordValue(i < 98 ? 200_000 : p99Us * 1_000);
    }
    LoadResult load = new LoadResult(1000, 1000, 0, 0, 0, 1_000_000_000L, h);
    return new Trial(
        s,
        repeat,
        load,
        80,
        cpuUs,
        100,
        10,
        0.8,
        1,
        5,
        1,
        false,
        0.5,
        new CapacityRamp.Result(capacity, false, List.of(new CapacityRamp.Step(37_500, true))));
  }
}
