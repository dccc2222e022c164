package io.github.affinitykit.core.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.testkit.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** pin and threads refuse what they cannot do in one line each, before attaching anywhere. */
@Timeout(60)
class AttachCommandTest {
  @TempDir Path dir;

  @Test
  void shouldAskForAPidOrAllButNotBoth() {
    AffinityKitCliTest.run("threads")
        .assertUsageError("--pid: none (expected: --pid PID or --all)");
    AffinityKitCliTest.run("threads", "--pid", "1", "--all")
        .assertUsageError("--pid: 1 (expected: --pid PID or --all)");
  }

  @Test
  void shouldNameTheMissingAgentJarAndTheRule() {
    Path missing = dir.resolve("nope.jar");
    AffinityKitCliTest.run("pin", "--pid", "1", "--agent", missing.toString(), "x=cpus:1")
        .assertUsageError(
            "--agent: "
                + missing
                + " (expected: the agent's jar, affinity-agent.jar (default: beside"
                + " affinity-cli.jar))");
  }

  @Test
  void shouldRefuseAnUnreadableOrEmptyRulesFile() throws Exception {
    Path jar = Files.writeString(dir.resolve("affinity-agent.jar"), "");
    CliRun r =
        AffinityKitCliTest.run(
            "pin", "--pid", "1", "--agent", jar.toString(), "@" + dir.resolve("rules"));
    assertThat(r.status()).isEqualTo(CliRun.USAGE_ERROR);
    assertThat(r.err()).startsWith("RULES: @" + dir.resolve("rules") + " (expected: a readable");
    Path empty = Files.writeString(dir.resolve("empty"), "\n");
    AffinityKitCliTest.run("pin", "--pid", "1", "--agent", jar.toString(), "@" + empty)
        .assertUsageError(
            "RULES: @" + empty + " (expected: <thread-name glob>=<group rule>[;...])");
  }

  @Test
  void shouldRefuseAPidWithoutAProcessBeforeAttaching() {
    AffinityKitCliTest.run("threads", "--pid", "999999999")
        .assertUsageError("--pid: 999999999 (expected: a running process of this user)");
  }
}
