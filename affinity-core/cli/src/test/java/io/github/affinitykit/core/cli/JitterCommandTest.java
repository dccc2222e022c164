package io.github.affinitykit.core.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.testkit.CliRun;
import io.github.affinitykit.core.testkit.Fixtures;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The jitter command's and {@code doctor --jitter}'s options: every bad value refused in one line
 * before anything is sampled, and the isolated arm refused without its flag or without root.
 */
@Timeout(60)
class JitterCommandTest {
  private static CliRun cli(String... args) {
    return CliRun.of(
        (out, err) ->
            AffinityKitCli.run(List.of(args), out, err, () -> AffinityBackend.unsupported("test")));
  }

  @Test
  void shouldRefuseAWindowOutsideOneSecondToTenMinutes() {
    cli("jitter", "--window", "0s")
        .assertUsageError("--window: 0s (expected: a duration from 1s to 10m)");
    cli("jitter", "--window", "999ms")
        .assertUsageError("--window: 999ms (expected: a duration from 1s to 10m)");
    cli("jitter", "--window", "11m")
        .assertUsageError("--window: 11m (expected: a duration from 1s to 10m)");
    cli("jitter", "--window", "5").assertUsageError("--window: 5 (expected: a duration >= 0");
  }

  @Test
  void shouldRefuseTheDoctorsJitterWindowInTheSameForm() {
    cli("doctor", "--jitter", "0s")
        .assertUsageError("--jitter: 0s (expected: a duration from 1s to 10m)");
    cli("doctor", "--jitter", "1h")
        .assertUsageError("--jitter: 1h (expected: a duration from 1s to 10m)");
    cli("doctor", "--jitter", "-1s").assertUsageError("--jitter: -1s (expected: a duration >= 0");
    String e5 = Fixtures.root(Fixtures.E5).toString();
    cli("doctor", "--root", e5, "--jitter", "1s")
        .assertUsageError("--jitter: 1s (expected: no --root: it samples this host)");
  }

  @Test
  void shouldRefuseCountsAndCpusOutOfRange() {
    cli("jitter", "--noise", "257").assertUsageError("--noise: 257 (expected: 0 to 256)");
    cli("jitter", "--noise", "-2").assertUsageError("--noise: -2 (expected: 0 to 256)");
    cli("jitter", "--anchor-rounds", "11")
        .assertUsageError("--anchor-rounds: 11 (expected: 0 to 10)");
    cli("jitter", "--anchor-rounds", "x")
        .assertUsageError("--anchor-rounds: x (expected: an integer)");
    int beyond = HostCpus.probe().reachable().last() + 1;
    cli("jitter", "--cpus", String.valueOf(beyond))
        .assertUsageError("--cpus: " + beyond + " (expected: CPUs this process can reach, ");
    cli("jitter", "--cpus", "3-1").assertUsageError("--cpus: 3-1 (expected: ");
    cli("jitter", "--arms", "2").assertUsageError("unknown option: --arms (expected: one of ");
  }

  @Test
  void shouldRefuseTheIsolatedArmWithoutItsFlagOrWithoutRoot() {
    assertThat(JitterExperiment.isolatedRefusal(false, 0))
        .hasValue("not run: needs --isolated (it changes the whole machine for the arm) and root");
    assertThat(JitterExperiment.isolatedRefusal(false, 1000)).isPresent();
    assertThat(JitterExperiment.isolatedRefusal(true, 1000))
        .hasValue("refused: needs root (effective uid 1000)");
    assertThat(JitterExperiment.isolatedRefusal(true, -1))
        .hasValue("refused: needs root (effective uid unknown)");
    assertThat(JitterExperiment.isolatedRefusal(true, 0)).isEmpty();
  }

  @Test
  void shouldListTheCommandAndRenderItsHelp() {
    CliRun help = cli("--help");
    assertThat(help.status()).isZero();
    assertThat(help.out()).contains("jitter");
    CliRun.assertHelpRendersCleanly(new JitterCommand(() -> AffinityBackend.unsupported("test")));
    CliRun.assertHelpRendersCleanly(new DoctorCommand(() -> AffinityBackend.unsupported("test")));
  }
}
