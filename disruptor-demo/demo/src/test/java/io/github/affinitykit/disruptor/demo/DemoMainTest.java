package io.github.affinitykit.disruptor.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cli.CommandLines;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.CliRun;
import io.github.affinitykit.disruptor.Pinning;
import io.github.affinitykit.disruptor.WaitKind;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The demo's command line. A tiny run of two rows: {@link DemoMainIT}. */
class DemoMainTest {
  @TempDir Path locks;

  static DemoOptions parse(String... args) {
    DemoCommand command = new DemoCommand(AffinityKit::shared, System.out);
    CommandLines.configure(new CommandLine(command)).parseArgs(args);
    return command.options();
  }

  /** Runs the command line on a kit that reserves in the test's directory. */
  CliRun run(String... args) {
    return CliRun.of(
        (out, err) ->
            DemoMain.execute(
                () ->
                    AffinityKit.create(
                        HostCpus.probe(),
                        AffinityBackend.detect(),
                        CpuReservations.inDirectory(locks)),
                List.of(args),
                out,
                err));
  }

  @Test
  void shouldParseFlagsIntoRows() {
    DemoOptions quick = parse("--quick", "--shapes", "3", "--pinning", "all");
    DemoOptions full = parse();
    DemoOptions given = parse("--quick", "--burst-ms", "7", "--ring", "64", "--audit-ms", "0");

    assertThat(quick.burstMs()).isLessThan(full.burstMs());
    assertThat(full.scenarios()).hasSize(30);
    assertThat(quick.scenarios())
        .hasSize(5)
        .allMatch(s -> s.consumers() == 3 && s.pinning() == Pinning.ALL);
    assertThat(quick.scenarios().get(0).strategy()).contains(WaitKind.BUSY_SPIN);
    assertThat(quick.scenarios().get(4).strategy()).isEmpty();
    assertThat(given.burstMs()).isEqualTo(7);
    assertThat(given.ringSize()).isEqualTo(64);
    assertThat(given.pacedEvents()).isEqualTo(quick.pacedEvents());
  }

  @Test
  void shouldRejectEachBadFlagWithOneLineAndExitTwo() {
    assertOneLine(run("--rate", "0"), "--rate: 0 (expected: an integer >= 1)");
    assertOneLine(run("--rate", "fast"), "--rate: fast (expected: an integer)");
    assertOneLine(run("--ring", "1000"), "--ring: 1000 (expected: a power of two");
    assertOneLine(
        run("--pinning", "some"), "--pinning: some (expected: unpinned, consumers or all)");
    assertOneLine(run("--shapes", "1,x"), "--shapes: 1,x (expected: consumer counts >= 1");
    assertOneLine(
        run("--strategies", "sleeping,nap"),
        "--strategies: sleeping,nap (expected: busy-spin, yielding, sleeping, blocking");
    assertOneLine(run("--burst-ms"), "--burst-ms: missing value (expected: --burst-ms N)");
    assertOneLine(run("--fast"), "unknown option: --fast (expected: one of --quick, --burst-ms");
  }

  @Test
  @Timeout(60)
  void shouldRejectABadPoolOverrideWithOneLine() {
    for (String bad : List.of("abc", "5-1")) {
      System.setProperty("affinitykit.pool", bad);
      try {
        assertOneLine(
            run("--quick"), "-Daffinitykit.pool: cpu list \"" + bad + "\": at position 0: ");
      } finally {
        System.clearProperty("affinitykit.pool");
      }
    }
  }

  @Test
  void shouldPrintGeneratedHelpAndVersion() {
    CliRun help = run("--help");
    CliRun version = run("--version");

    assertThat(help.status()).isZero();
    assertThat(help.err()).isEmpty();
    CliRun.assertHelpRendersCleanly(new DemoCommand(AffinityKit::shared, System.out));
    assertThat(help.out())
        .startsWith("Usage: disruptor-demo")
        .contains("--quick", "--burst-ms=N", "--rate=N/s", "--shapes=LIST", "--pinning=LIST")
        .containsSubsequence(
            "--pinning=LIST",
            "-h, --help",
            "-V, --version",
            "Exit status:",
            "0   every event reached every consumer, in order",
            "1   an event was lost or reordered",
            "2   a bad option or pool override");
    assertThat(version.status()).isZero();
    assertThat(version.out()).startsWith("disruptor-demo (Affinity Kit ");
  }

  private static void assertOneLine(CliRun r, String start) {
    r.assertUsageError(start);
    assertThat(r.out()).isEmpty();
  }
}
