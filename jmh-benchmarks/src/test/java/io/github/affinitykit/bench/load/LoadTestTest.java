package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.affinitykit.core.CpuSet;
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
 * The load test end to end in miniature: real gateway JVMs (the jar the reactor built), a tiny
 * load, two scenarios; no message may be lost and the CPU figures must be plausible.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(180)
class LoadTestTest {
  @Test
  void shouldRunTinyScenariosWithoutLossAndWithPlausibleCpu(@TempDir Path out) throws Exception {
    LoadTestOptions o =
        LoadTestCommandTest.parse(
            "--scenarios", "unpinned,pinned,pinned-spin",
            "--capacity-probes", "1",
            "--repeats", "1",
            "--connections", "4",
            "--rate", "1000",
            "--warmup", "500ms",
            "--duration", "1s",
            "--out", out.toString());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream console = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    LoadOutcome outcome = LoadTest.run(o, console);
    LoadReport.write(o, outcome, console);

    List<Trial> trials = outcome.trials();
    assertThat(trials).hasSize(outcome.scenarios().size());
    assertThat(outcome.scenarios()).startsWith(Scenario.UNPINNED, Scenario.PINNED);
    if (!outcome.scenarios().contains(Scenario.PINNED_SPIN)) {
      assertThat(outcome.notes()).singleElement().asString().startsWith("pinned-spin: left out: ");
    }
    int cpus = o.serverCpus().size() + o.clientCpus().size();
    for (Trial t : trials) {
      assertThat(t.load().lost()).as("%s lost", t.scenario()).isZero();
      assertThat(t.load().errors()).as("%s errors", t.scenario()).isZero();
      assertThat(t.load().outOfOrder()).isZero();
      assertThat(t.load().received()).isEqualTo(t.load().sent()).isPositive();
      assertThat(t.serverCpuPercent()).isGreaterThan(0).isLessThanOrEqualTo(100.0 * cpus + 5);
      assertThat(t.cpuUsPerMessage()).isGreaterThan(0).isLessThan(1e6 / 1000.0 * cpus + 1);
      assertThat(t.idleCpuPercent())
          .isGreaterThanOrEqualTo(0)
          .isLessThanOrEqualTo(100.0 * cpus + 5);
      assertThat(t.capacity().steps())
          .hasSizeBetween(1, 2)
          .first()
          .isEqualTo(t.capacity().steps().get(0));
      assertThat(t.capacity().steps().get(0).rate()).isEqualTo(1000);
    }
    String printed = bytes.toString(StandardCharsets.UTF_8);
    assertThat(printed)
        .contains("[1/" + trials.size() + "]")
        .contains("[2/" + trials.size() + "]")
        .contains("left)")
        .contains("pinned vs unpinned, CPU per message: cannot say at n=1/1")
        .contains("scenario")
        .contains("report:");
    assertThat(printed.indexOf("Verdict at 1,000 msg/s")).isLessThan(printed.indexOf("scenario "));
    JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    assertThat(json.get("trials")).hasSize(trials.size());
    assertThat(json.get("verdicts").get(0).get("outcome").asText()).isEqualTo("CANNOT_SAY");
    assertThat(Files.readString(out.resolve("report.html"))).contains("<svg").contains("pinned");
  }

  @Test
  void shouldKeepGatewayLockFilesOutOfTmpAndPinnedGatewaysOffTheClient(@TempDir Path dir) {
    assertThat(command(Scenario.PINNED, dir))
        .startsWith("taskset", "-c", "2-4", "java")
        .contains("-Djava.io.tmpdir=" + dir, "-Daffinitykit.pool=2-3", "--pin", "pinned")
        .doesNotContain(Scenario.SPIN_THEN_BLOCK);
    assertThat(command(Scenario.TASKSET, dir)).startsWith("taskset", "-c", "2-3", "java");
    List<String> unpinned = command(Scenario.UNPINNED, dir);
    assertThat(unpinned.get(0)).isEqualTo("java");
    assertThat(unpinned).contains("-Djava.io.tmpdir=" + dir, "none");
  }

  @Test
  void shouldRunPinnedSpinAsPinnedLoopsThatSpinThenBlock(@TempDir Path dir) {
    assertThat(command(Scenario.PINNED_SPIN, dir))
        .startsWith("taskset", "-c", "2-4", "java")
        .containsSubsequence(
            "-Daffinitykit.pool=2-3",
            "-cp",
            "a.jar:b.jar",
            GatewayLaunch.MAIN,
            "--port",
            "1234",
            "--pin",
            "pinned",
            "--idle-policy=spin-then-block",
            "--workers",
            "2");
    assertThat(Scenario.parseList("Pinned-Spin,pinned_spin"))
        .containsExactly(Scenario.PINNED_SPIN, Scenario.PINNED_SPIN);
    assertThat(Scenario.PINNED_SPIN.label()).isEqualTo("pinned-spin");
  }

  @Test
  void shouldStartAGatewayJarWhenOneIsNamed(@TempDir Path dir) {
    List<String> cmd =
        Scenario.UNPINNED.command(
            GatewayLaunch.jar(Path.of("gw.jar")), 1, CpuSet.of(1), CpuSet.empty(), dir, List.of());

    assertThat(cmd).containsSubsequence("-jar", "gw.jar", "--port", "1").doesNotContain("-cp");
  }

  /** The command for a server on CPUs 2-3 with housekeeping CPU 4. */
  private static List<String> command(Scenario s, Path lockDir) {
    return s.command(
        new GatewayLaunch("java", "", "a.jar:b.jar"),
        1234,
        CpuSet.of(2, 3),
        CpuSet.of(4),
        lockDir,
        List.of("--workers", "2"));
  }
}
