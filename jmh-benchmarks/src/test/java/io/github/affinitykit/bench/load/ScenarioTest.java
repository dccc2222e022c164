package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.cpu.CpuSet;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each arm's gateway command line, and the arms of a run. */
class ScenarioTest {
  @Test
  void shouldKeepGatewayLockFilesOutOfTmpAndPinnedGatewaysOffTheClient(@TempDir Path dir) {
    assertThat(command(Scenario.PINNED, dir))
        .startsWith("taskset", "-c", "2-4", "java")
        .contains("-Djava.io.tmpdir=" + dir, "-Daffinitykit.pool=2-3", "--pin", "pinned")
        .doesNotContain(Scenario.SPIN_THEN_BLOCK);
    assertThat(command(Scenario.TASKSET, dir)).startsWith("taskset", "-c", "2-3", "java");
    List<String> unpinned = command(Scenario.UNPINNED, dir);
    assertThat(unpinned.get(0)).isEqualTo("java");
    assertThat(unpinned).contains("-Djava.io.tmpdir=" + dir, "unpinned");
    assertThat(command(Scenario.UNPINNED_AA, dir)).isEqualTo(unpinned);
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
            "--wait-policy=spin-then-block",
            "--workers",
            "2");
    assertThat(Scenario.parseList("Pinned-Spin,pinned_spin"))
        .containsExactly(Scenario.PINNED_SPIN, Scenario.PINNED_SPIN);
    assertThat(Scenario.PINNED_SPIN.label()).isEqualTo("pinned-spin");
  }

  @Test
  void shouldRunTheHandicappedArmAsTheUnpinnedGatewayInsideTheHandicap(@TempDir Path dir) {
    assertThat(command(Scenario.HANDICAPPED, dir))
        .startsWith("java")
        .containsSubsequence(
            "-cp",
            "a.jar:b.jar",
            HandicappedGateway.class.getName(),
            "0.1600",
            GatewayLaunch.MAIN,
            "--port",
            "1234",
            "--pin",
            "unpinned")
        .doesNotContain("taskset");
    assertThat(HandicappedGateway.describe(0.16)).isEqualTo("a thread burning 16% of a CPU");
    assertThat(HandicappedGateway.describe(1.28))
        .isEqualTo("2 threads burning 1.28 CPUs between them");
  }

  @Test
  void shouldGiveTheHandicappedGatewayWorkPerMessageWorthTheSameShareOfACpu(@TempDir Path dir) {
    GatewayLaunch gw = GatewayLaunch.ownClassPath();
    Handicap h = Handicap.perMessage(0.16, 96_200);

    assertThat(h.workNs()).isEqualTo(1_663); // 0.16 CPU-s per s over 96,200 messages per s
    assertThat(
            Scenario.HANDICAPPED.command(
                gw, 1, CpuSet.of(1), CpuSet.empty(), dir, h, false, List.of()))
        .containsSubsequence(
            GatewayLaunch.MAIN, "--work-ns", "1663", "--port", "1", "--pin", "unpinned")
        .doesNotContain(HandicappedGateway.class.getName());
    assertThat(h.describe())
        .isEqualTo("1,663 ns of work per message (16% of a CPU at the run's rate)");
    assertThat(Handicap.threads(0.16).describe()).isEqualTo("a thread burning 16% of a CPU");
    assertThatThrownBy(() -> Handicap.perMessage(0.16, 0))
        .hasMessage("handicap rate: 0 msg/s (expected: > 0, a fixed rate)");
  }

  @Test
  void shouldPutTheControlsRightAfterUnpinnedAndKeepThemOffTheCommandLine() {
    List<Scenario> five = Scenario.parseList("unpinned,taskset,pinned,exclusive,pinned-spin");

    assertThat(Scenario.arms(five, true))
        .containsExactly(
            Scenario.UNPINNED,
            Scenario.UNPINNED_AA,
            Scenario.HANDICAPPED,
            Scenario.TASKSET,
            Scenario.PINNED,
            Scenario.EXCLUSIVE,
            Scenario.PINNED_SPIN);
    assertThat(Scenario.arms(five, false)).isEqualTo(five);
    assertThat(Scenario.arms(List.of(Scenario.PINNED), true)).containsExactly(Scenario.PINNED);
    assertThatThrownBy(() -> Scenario.parseList("unpinned-aa"))
        .hasMessage(
            "--scenarios: unpinned-aa (expected: unpinned, taskset, pinned, exclusive,"
                + " pinned-spin)");
  }

  @Test
  void shouldStartAGatewayJarWhenOneIsNamed(@TempDir Path dir) {
    GatewayLaunch jar = GatewayLaunch.jar(Path.of("gw.jar"));
    List<String> cmd =
        Scenario.UNPINNED.command(
            jar, 1, CpuSet.of(1), CpuSet.empty(), dir, Handicap.NONE, false, List.of());

    assertThat(cmd).containsSubsequence("-jar", "gw.jar", "--port", "1").doesNotContain("-cp");
    assertThat(jar.handicappedArgs(0.2))
        .startsWith("-cp")
        .contains(HandicappedGateway.class.getName(), "0.2000")
        .last()
        .isEqualTo(GatewayLaunch.MAIN); // no readable manifest: the usual main
    assertThat(jar.handicappedArgs(0.2).get(1)).startsWith("gw.jar:");
  }

  /** The command for a server on CPUs 2-3 with housekeeping CPU 4. */
  private static List<String> command(Scenario s, Path lockDir) {
    return s.command(
        new GatewayLaunch("java", "", "a.jar:b.jar"),
        1234,
        CpuSet.of(2, 3),
        CpuSet.of(4),
        lockDir,
        Handicap.threads(0.16),
        false,
        List.of("--workers", "2"));
  }

  @Test
  void shouldIsolateOnlyTheExclusiveGatewayAndOnlyWhenAsked(@TempDir Path dir) {
    GatewayLaunch gw = new GatewayLaunch("java", "", "a.jar");
    assertThat(
            Scenario.EXCLUSIVE.command(
                gw, 1, CpuSet.of(2), CpuSet.of(4), dir, Handicap.NONE, true, List.of()))
        .containsSubsequence("--pin", "isolated")
        .as("exits before the isolation could be put back")
        .doesNotContain("-XX:+ExitOnOutOfMemoryError");
    assertThat(
            Scenario.EXCLUSIVE.command(
                gw, 1, CpuSet.of(2), CpuSet.of(4), dir, Handicap.NONE, false, List.of()))
        .containsSubsequence("--pin", "exclusive")
        .contains("-XX:+ExitOnOutOfMemoryError");
    for (Scenario s : List.of(Scenario.PINNED, Scenario.PINNED_SPIN, Scenario.UNPINNED)) {
      assertThat(s.command(gw, 1, CpuSet.of(2), CpuSet.of(4), dir, Handicap.NONE, true, List.of()))
          .as(s.label())
          .doesNotContain("isolated")
          .contains("-XX:+ExitOnOutOfMemoryError");
    }
  }
}
