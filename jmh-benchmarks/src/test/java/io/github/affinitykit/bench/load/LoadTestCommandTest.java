package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cli.CommandLines;
import io.github.affinitykit.core.cli.DurationConverter;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.testkit.CliRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The load test's command line: options, help and version, and every bad value as one line. */
@EnabledOnOs(OS.LINUX)
class LoadTestCommandTest {
  @TempDir static Path dir;

  /** Parses {@code args} as {@code main} would and returns the checked options. */
  static LoadTestOptions parse(String... args) {
    LoadTestCommand command = new LoadTestCommand(System.out);
    CommandLines.configure(new CommandLine(command)).parseArgs(args);
    return command.options();
  }

  /** Runs {@code args}, with a stand-in gateway jar unless they name one. */
  static CliRun run(String... args) throws IOException {
    List<String> line = new ArrayList<>(List.of(args));
    if (!line.contains("--jar")) {
      line.addAll(List.of("--jar", Files.write(dir.resolve("gw.jar"), new byte[0]).toString()));
    }
    return CliRun.of((out, err) -> LoadTest.execute(line, out, err));
  }

  @Test
  void shouldAcceptEveryDocumentedOption() throws IOException {
    LoadTestOptions o =
        parse(
            "--jar",
            Files.write(dir.resolve("gw.jar"), new byte[0]).toString(),
            "--noise-threshold",
            "25",
            "--pressure-threshold",
            "90",
            "--client-threads",
            "2",
            "--window",
            "4",
            "--payload",
            "64",
            "--workers",
            "1",
            "--warmup",
            "PT5.5S",
            "--duration",
            "2m",
            "--server-cpus",
            "1",
            "--client-cpus",
            "0");

    assertThat(o.noiseThresholdPercent()).isEqualTo(25);
    assertThat(o.pressureThresholdPercent()).isEqualTo(90);
    assertThat(o.load().ioThreads()).isEqualTo(2);
    assertThat(o.load().window()).isEqualTo(4);
    assertThat(o.load().payloadBytes()).isEqualTo(64);
    assertThat(o.load().warmup().toMillis()).isEqualTo(5_500);
    assertThat(o.load().duration().toSeconds()).isEqualTo(120);
    assertThat(o.serverArgs()).containsExactly("--workers", "1");
  }

  @Test
  void shouldRejectEachBadValueWithOneLineAndExitTwo() throws IOException {
    assertOneLine(run("--repeats", "0"), "--repeats: 0 (expected: an integer >= 1)");
    assertOneLine(run("--rate", "fast"), "--rate: fast (expected: an integer)");
    assertOneLine(
        run("--scenarios", "pinnned"),
        "--scenarios: pinnned (expected: unpinned, taskset, pinned, exclusive, pinned-spin)");
    assertOneLine(run("--slo", "5"), "--slo: 5 (expected: " + DurationConverter.RULE + ")");
    assertOneLine(run("--slo", "0ms"), "--slo: 0ms (expected: a duration > 0)");
    assertOneLine(
        run("--target-cpu", "120"), "--target-cpu: 120 (expected: a number > 0 and <= 100)");
    assertOneLine(
        run("--capacity-probes", "-1"), "--capacity-probes: -1 (expected: an integer >= 0)");
    assertOneLine(run("--warmup", "5"), "--warmup: 5 (expected: " + DurationConverter.RULE + ")");
    assertOneLine(run("--duration", "0s"), "--duration: 0s (expected: a duration > 0)");
    assertOneLine(
        run("--warmup", "2s"),
        "--warmup: 2s (expected: a duration >= 3s, the steady-state criterion's three 1 s"
            + " windows)");
    assertOneLine(run("--budget", "0s"), "--budget: 0s (expected: a duration > 0)");
    assertOneLine(
        run("--server-cpus", "0", "--client-cpus", "0"),
        "--server-cpus 0 --client-cpus 0 (expected: two non-empty, disjoint CPU lists)");
    assertOneLine(
        run("--server-cpus", "3-1"),
        "--server-cpus: 3-1 (expected: a cpu list such as 0-3,8; cpu list \"3-1\": at position 0:");
    assertOneLine(
        run("--noise-threshold", "-1"), "--noise-threshold: -1 (expected: a number >= 0)");
    assertOneLine(run("--payload", "2000000"), "--payload: 2000000 (expected: an integer from 16");
    assertOneLine(run("--bogus", "1"), "unknown option: --bogus (expected: one of --jar, ");
    assertOneLine(
        run("--jar", "no-such.jar"), "--jar: no-such.jar (expected: an existing gateway jar file)");
    assertOneLine(
        run("--server-cpus", "1", "--client-cpus", "0", "--housekeeping-cpus", "1"),
        "--housekeeping-cpus 1 (expected: disjoint");
  }

  @Test
  void shouldRejectAPoolOverrideTheGatewaysWouldRefuseWithOneLine() throws IOException {
    for (String bad : List.of("abc", "5-1")) {
      System.setProperty("affinitykit.pool", bad);
      try {
        assertOneLine(run(), "-Daffinitykit.pool: cpu list \"" + bad + "\": at position 0: ");
      } finally {
        System.clearProperty("affinitykit.pool");
      }
    }
  }

  @Test
  void shouldPrintGeneratedHelpWithEveryOptionAndTheVersion() throws IOException {
    CliRun help = run("--help");
    CliRun version = run("--version");

    assertThat(help.status()).isZero();
    assertThat(help.err()).isEmpty();
    CliRun.assertHelpRendersCleanly(new LoadTestCommand(System.out));
    for (String option :
        List.of(
            "--jar",
            "--scenarios",
            "--repeats",
            "--connections",
            "--rate",
            "--window",
            "--payload",
            "--warmup",
            "--duration",
            "--server-cpus",
            "--client-cpus",
            "--workers",
            "--out",
            "--housekeeping-cpus",
            "--noise-threshold",
            "--pressure-threshold",
            "--client-threads",
            "--target-cpu",
            "--slo",
            "--capacity-probes",
            "--quick",
            "--budget",
            "--no-controls",
            "--help",
            "--version")) {
      assertThat(help.out()).contains(option);
    }
    assertThat(help.out())
        .startsWith("Usage: LoadTest")
        .contains("(default 5ms)")
        .contains("default: calibrated")
        .contains("Sizing a run on a big server:")
        .contains("--connections at least 4 per worker loop");
    assertThat(version.status()).isZero();
    assertThat(version.out()).startsWith("LoadTest (Affinity Kit ");
  }

  @Test
  void shouldTakeItsCpusFromTheHostModelUnlessTheyAreGiven() {
    CpuRoles host = CpuRoles.of(HostCpus.probe());

    LoadTestOptions defaults = parse();
    LoadTestOptions given =
        parse("--server-cpus", "1", "--client-cpus", "0", "--housekeeping-cpus", "");

    assertThat(defaults.serverCpus()).isEqualTo(host.server());
    assertThat(defaults.clientCpus()).isEqualTo(host.client());
    assertThat(defaults.housekeepingCpus()).isEqualTo(host.housekeeping());
    assertThat(given.serverCpus()).isEqualTo(CpuSet.of(1));
    assertThat(given.clientCpus()).isEqualTo(CpuSet.of(0));
    assertThat(given.housekeepingCpus().isEmpty()).isTrue();
  }

  @Test
  void shouldCalibrateUnlessTheRateIsGivenAndShortenEverythingInQuickMode() {
    LoadTestOptions calibrated = parse("--slo", "2ms", "--target-cpu", "70");
    LoadTestOptions fixed = parse("--rate", "1000");
    LoadTestOptions quick = parse("--quick");
    LoadTestOptions quickButLong = parse("--quick", "--duration", "9s", "--repeats", "4");

    assertThat(calibrated.search().calibrate()).isTrue();
    assertThat(calibrated.search().slo().toMillis()).isEqualTo(2);
    assertThat(calibrated.search().targetCpuPercent()).isEqualTo(70);
    assertThat(calibrated.repeats()).isEqualTo(3);
    assertThat(calibrated.search().capacityProbes()).isEqualTo(2);
    assertThat(calibrated.load().warmup()).hasSeconds(15);
    assertThat(calibrated.load().duration()).hasSeconds(3);
    assertThat(fixed.search().calibrate()).isFalse();
    assertThat(fixed.load().ratePerSecond()).isEqualTo(1000);
    assertThat(quick.repeats()).isEqualTo(1);
    assertThat(quick.load().duration()).hasSeconds(1);
    assertThat(quick.load().warmup()).hasSeconds(6);
    assertThat(quick.expectedPerTrial()).isLessThan(calibrated.expectedPerTrial());
    assertThat(quickButLong.load().duration().toSeconds()).isEqualTo(9);
    assertThat(quickButLong.repeats()).isEqualTo(4);
  }

  @Test
  void shouldRunTheControlsByDefaultButNotInQuickModeOrWhenToldNot() {
    assertThat(parse().search().controls()).isTrue();
    assertThat(parse("--no-controls").search().controls()).isFalse();
    assertThat(parse("--quick").search().controls()).isFalse();
    assertThat(parse().search().remeasure()).isTrue();
    assertThat(parse("--quick").search().remeasure()).isFalse();
    assertThat(parse().search().budget()).hasMinutes(10);
    assertThat(parse("--quick").search().budget()).hasMinutes(2);
    assertThat(parse("--budget", "20m").search().budget()).hasMinutes(20);
  }

  @Test
  void shouldTakeTheShortSearchesOnlyInQuickMode() {
    LoadSearch normal = parse().search();
    LoadSearch quick = parse("--quick").search();

    assertThat(normal.calibrationProbes()).isEqualTo(8);
    assertThat(normal.calibrationBudget()).hasSeconds(60);
    assertThat(normal.capacityProbe()).hasMillis(1_000);
    assertThat(normal.idleWindow()).hasSeconds(1);
    assertThat(quick.calibrationProbes()).isEqualTo(4);
    assertThat(quick.calibrationBudget()).hasSeconds(25);
    assertThat(quick.capacityProbe()).hasMillis(600);
    assertThat(quick.idleWindow()).hasMillis(500);
  }

  @Test
  void shouldPlanTheDefaultRunOfSevenArmsWellInsideItsBudgetOnTwoCpus() {
    LoadTestOptions o = parse("--server-cpus", "1", "--client-cpus", "0");

    assertThat(Scenario.arms(o.scenarios(), o.search().controls())).hasSize(7);
    // 21 trials at the estimated pace leave the budget room for calibration and re-measurement
    assertThat(o.expectedPerTrial().multipliedBy(21))
        .isLessThan(o.search().budget().minusSeconds(90));
  }

  @Test
  void shouldLaunchTheGatewayFromItsOwnClassPathByDefault() {
    LoadTestOptions o = parse();

    assertThat(o.gateway().jar()).isEmpty();
    List<String> args = o.gateway().mainArgs();
    assertThat(args).hasSize(3).startsWith("-cp").endsWith(GatewayLaunch.MAIN);
    assertThat(args.get(1).split(java.io.File.pathSeparator))
        .allSatisfy(entry -> assertThat(Path.of(entry)).isAbsolute())
        .hasSameSizeAs(System.getProperty("java.class.path").split(java.io.File.pathSeparator));
  }

  private static void assertOneLine(CliRun r, String start) {
    r.assertUsageError(start);
    assertThat(r.out()).isEmpty();
  }
}
