package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The load test end to end in miniature: real gateway JVMs (the classes the reactor built), the
 * controls included, a tiny load; no message may be lost, every trial records its warm-up, and the
 * reports come out in order. Performance is not asserted: on a busy machine the honest verdict is
 * that it cannot judge.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(300)
class LoadTestIT {
  @Test
  void shouldRunEveryArmWithoutLossAndReportIt(@TempDir Path out) throws Exception {
    LoadTestOptions o =
        LoadTestCommandTest.parse(
            "--scenarios", "unpinned,pinned,pinned-spin",
            "--capacity-probes", "1",
            "--repeats", "1",
            "--connections", "4",
            "--rate", "1000",
            "--warmup", "3s",
            "--duration", "1s",
            "--budget", "100s",
            "--noise-threshold", "1000", // mechanics, not measurements: others may run
            "--out", out.toString());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream console = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    LoadOutcome outcome = LoadTest.run(o, console);
    LoadReport.write(o, outcome, console);

    assertThat(outcome.scenarios())
        .startsWith(Scenario.UNPINNED, Scenario.UNPINNED_AA, Scenario.HANDICAPPED, Scenario.PINNED);
    if (!outcome.scenarios().contains(Scenario.PINNED_SPIN)) {
      assertThat(outcome.notes()).singleElement().asString().startsWith("pinned-spin: left out: ");
    }
    List<Trial> trials = outcome.trials();
    assertThat(trials).extracting(Trial::scenario).containsAll(outcome.scenarios());
    int cpus = o.serverCpus().size() + o.clientCpus().size();
    for (Trial t : trials) {
      assertThat(t.load().lost()).as("%s lost", t.scenario()).isZero();
      assertThat(t.load().errors()).as("%s errors", t.scenario()).isZero();
      assertThat(t.load().outOfOrder()).isZero();
      assertThat(t.load().received()).isEqualTo(t.load().sent()).isPositive();
      assertThat(t.serverCpuPercent()).isGreaterThan(0).isLessThanOrEqualTo(100.0 * cpus + 5);
      assertThat(t.warmup().windows()).isBetween(1, 3);
      assertThat(t.warmup().tookNs()).isPositive();
      List<CapacityRamp.Step> steps = t.capacity().steps();
      CapacityRamp.Step first = steps.get(0);
      if (first.sustained()) {
        assertThat(steps).as("the operating point and one probe").hasSizeBetween(1, 2);
      } else { // p99 over the SLO at the operating point (a shared host): the ramp descends
        long floor = Math.max(Calibration.MIN_RATE, 1000 / CapacityRamp.FLOOR_DIVISOR);
        assertThat(steps)
            .as("the descent by halves to its floor, then one probe")
            .hasSizeBetween(1, 8);
        assertThat(steps)
            .extracting(CapacityRamp.Step::rate)
            .allMatch(r -> r >= floor && r <= 1000);
        if (steps.size() > 1) {
          assertThat(steps.get(1).rate()).as("the descent's first step").isLessThan(first.rate());
        }
      }
      assertThat(first.rate()).as("the ramp starts at the offered rate").isEqualTo(1000);
      assertThat(first.sustained())
          .as("the first step is the trial's own measurement against the 5 ms SLO")
          .isEqualTo(t.load().latencyUs(99) <= 5_000);
    }
    String log = Files.readString(out.resolve("gateway.log"));
    // the handicap as work per message: 16% of a CPU at 1,000 msg/s is 160 µs a message
    assertThat(log).contains(GatewayLaunch.MAIN + " --work-ns 160000 ");
    assertThat(log).doesNotContain(HandicappedGateway.class.getName());
    String printed = bytes.toString(StandardCharsets.UTF_8);
    System.out.print(printed);
    assertThat(printed)
        .contains("[1/5] unpinned    trial 1 at 1,000 msg/s")
        .contains("budget left)")
        .contains("Verdict:\n")
        .contains("Controls: not judged: the A/A arm has ")
        .contains("Operating point: at 1,000 msg/s, fixed by --rate")
        .contains("report:");
    assertThat(printed.indexOf("Verdict:")).isLessThan(printed.indexOf("arm "));
    JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    assertThat(json.get("trials")).hasSize(trials.size());
    assertThat(json.get("controls").get("state").asText()).isEqualTo("UNJUDGED");
    assertThat(json.get("trials").get(0).get("warmup").get("windows").asInt()).isPositive();
    assertThat(Files.readString(out.resolve("report.html"))).contains("<svg").contains("pinned");
  }
}
