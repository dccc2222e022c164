package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cpu.CpuSet;
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
      trials.add(Trials.of(Scenario.UNPINNED, r, 21.4 + r * 0.2, 3_000 + r * 100, 40_000, 80));
      trials.add(Trials.of(Scenario.PINNED, r, 17.5 + r * 0.2, pinnedP99[r], 52_000, 65));
    }
    trials.add(Trials.cold(Trials.of(Scenario.PINNED, 3, 0.1, 1, 1, 1)));
    LoadOutcome outcome =
        new LoadOutcome(
            host(o),
            Optional.of(
                new Calibration.Result(
                    80,
                    3,
                    new Calibration.Point(37_500, 79.1, true, 5_000_000_000L),
                    List.of(
                        new Calibration.Point(20_000, 45, true, 9_000_000_000L),
                        new Calibration.Point(37_500, 79.1, true, 5_000_000_000L)),
                    "within 3 points")),
            37_500,
            List.of(Scenario.UNPINNED, Scenario.PINNED),
            trials,
            List.of(),
            Handicap.threads(0.16),
            false,
            Duration.ofSeconds(300));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    LoadReport.write(o, outcome, new PrintStream(bytes, true, StandardCharsets.UTF_8));

    String screen = bytes.toString(StandardCharsets.UTF_8);
    assertThat(screen)
        .startsWith("Verdict:\n  Against unpinned, pinned used 18% less CPU per message [")
        .contains("had the same p99 within noise (×")
        .contains("sustained 30% more load [")
        .contains("No controls ran")
        .contains("Operating point: at 37,500 msg/s, the unpinned trials ran at 80.0%")
        .contains("1 of 7 trials were not usable (not warm: 1, disturbed by other processes: 0)")
        .contains("pinned trial 4: not steady after 15.0 s")
        .contains(Verdict.METHOD);
    assertThat(screen.indexOf("Host: CPUs")).isGreaterThan(screen.indexOf(Verdict.METHOD));
    assertThat(screen.indexOf("\narm ")).isGreaterThan(screen.indexOf("Host: CPUs"));
    assertThat(screen).containsPattern("pinned +3 \\(\\+1 unusable\\) ");
    String html = Files.readString(out.resolve("report.html"));
    int verdict = html.indexOf("id=\"verdict\"");
    int hostFacts = html.indexOf("id=\"host\"");
    int charts = html.indexOf("<svg");
    int table = html.indexOf("id=\"table\"");
    assertThat(verdict).isPositive().isLessThan(hostFacts);
    assertThat(hostFacts).isLessThan(charts);
    assertThat(charts).isLessThan(table);
    assertThat(html)
        .doesNotContain("<pre")
        .contains("<p class=\"verdict\">Against unpinned, pinned used 18% less CPU per message")
        .contains("isolated CPUs</td><td>none")
        .contains("CPU µs per message")
        .contains("<th>capacity msg/s</th>")
        .contains("percentile")
        .containsPattern("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} ");
    assertThat(Files.readString(out.resolve("results.json")))
        .contains("\"outcome\" : \"LOWER\"")
        .contains("\"rate\" : 37500")
        .contains("\"state\" : \"OFF\"")
        .contains("\"usable\" : false")
        .contains("\"verdict\" : [ \"Against unpinned");
  }

  static LoadTestOptions options(Path out) {
    return new LoadTestOptions(
        new GatewayLaunch("java", "", "gw.jar"),
        List.of(Scenario.UNPINNED, Scenario.PINNED),
        3,
        new LoadConfig(
            URI.create("ws://127.0.0.1:1/ws"),
            50,
            128,
            Duration.ofSeconds(15),
            Duration.ofSeconds(3),
            0,
            8,
            1),
        LoadSearch.of(false, true, 80, Duration.ofMillis(5), 2, true, true, Duration.ofMinutes(8)),
        CpuSet.of(1),
        CpuSet.of(0),
        CpuSet.empty(),
        List.of(),
        out,
        10,
        100,
        false);
  }

  static HostFacts host(LoadTestOptions o) {
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
        "JDK 17",
        "");
  }
}
