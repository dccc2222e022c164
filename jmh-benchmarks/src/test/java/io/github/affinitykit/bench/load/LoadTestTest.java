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
            "--scenarios", "unpinned,pinned",
            "--repeats", "1",
            "--connections", "4",
            "--rate", "1000",
            "--warmup", "500ms",
            "--duration", "1s",
            "--out", out.toString());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream console = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    List<Trial> trials = LoadTest.run(o, console);
    LoadReport.write(o, trials, console);

    assertThat(trials).hasSize(2);
    int cpus = o.serverCpus().size() + o.clientCpus().size();
    for (Trial t : trials) {
      assertThat(t.load().lost()).as("%s lost", t.scenario()).isZero();
      assertThat(t.load().errors()).as("%s errors", t.scenario()).isZero();
      assertThat(t.load().outOfOrder()).isZero();
      assertThat(t.load().received()).isEqualTo(t.load().sent()).isPositive();
      assertThat(t.serverCpuPercent()).isGreaterThan(0).isLessThanOrEqualTo(100.0 * cpus + 5);
      assertThat(t.cpuUsPerMessage()).isGreaterThan(0).isLessThan(1e6 / 1000.0 * cpus + 1);
    }
    String printed = bytes.toString(StandardCharsets.UTF_8);
    assertThat(printed)
        .contains("[1/2]")
        .contains("[2/2]")
        .contains("scenario")
        .contains("report:");
    JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    assertThat(json.get("trials")).hasSize(2);
    assertThat(Files.readString(out.resolve("report.html"))).contains("<svg").contains("pinned");
  }

  @Test
  void shouldKeepGatewayLockFilesOutOfTmpAndPinnedGatewaysOffTheClient(@TempDir Path dir) {
    assertThat(command(Scenario.PINNED, dir))
        .startsWith("taskset", "-c", "2-4", "java")
        .contains("-Djava.io.tmpdir=" + dir, "-Daffinitykit.pool=2-3", "--pin", "pinned");
    assertThat(command(Scenario.TASKSET, dir)).startsWith("taskset", "-c", "2-3", "java");
    List<String> unpinned = command(Scenario.UNPINNED, dir);
    assertThat(unpinned.get(0)).isEqualTo("java");
    assertThat(unpinned).contains("-Djava.io.tmpdir=" + dir, "none");
  }

  /** The command for a server on CPUs 2-3 with housekeeping CPU 4. */
  private static List<String> command(Scenario s, Path lockDir) {
    return s.command("java", "gw.jar", 1234, CpuSet.of(2, 3), CpuSet.of(4), lockDir, List.of());
  }
}
