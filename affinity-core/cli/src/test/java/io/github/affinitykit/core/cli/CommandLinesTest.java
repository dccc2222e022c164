package io.github.affinitykit.core.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.testkit.CliRun;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/** The pieces every command line shares: the duration grammar and one-line errors. */
class CommandLinesTest {
  /** A command with one option of each kind the handler words differently. */
  @Command(name = "probe", mixinStandardHelpOptions = true, versionProvider = KitVersion.class)
  static final class Probe implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--timeout")
    Duration timeout = Duration.ZERO;

    @Option(names = "--count")
    int count;

    @Option(names = "--ratio")
    double ratio;

    @Option(names = "--state")
    Thread.State state = Thread.State.NEW;

    @Option(names = "--fail")
    String fail = "";

    @Override
    public Integer call() {
      switch (fail) {
        case "arg" -> CommandLines.configured(spec, () -> CpuListThrows.parse("pool", "7\n-1"));
        case "state" ->
            CommandLines.configured(
                spec,
                () -> {
                  throw new IllegalStateException("--pin: exclusive (expected: a spare CPU)");
                });
        case "bug" -> throw new UnsupportedOperationException("a bug, not a configuration");
        default -> {
          // no failure asked for
        }
      }
      spec.commandLine().getOut().println(timeout.toMillis() + " " + count + " " + state);
      return 0;
    }
  }

  /** Stands in for a library call that throws its documented exception. */
  static final class CpuListThrows {
    private CpuListThrows() {}

    static Object parse(String name, String value) {
      throw new IllegalArgumentException(name + ": " + value + " (expected: start <= end)");
    }
  }

  static CliRun run(String... args) {
    return CliRun.of(
        (out, err) -> CommandLines.execute(new CommandLine(new Probe()), List.of(args), out, err));
  }

  @Test
  void shouldAcceptTheOneDurationGrammar() {
    DurationConverter c = new DurationConverter();

    assertThat(c.convert("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(c.convert("3s")).isEqualTo(Duration.ofSeconds(3));
    assertThat(c.convert(" 15S ")).isEqualTo(Duration.ofSeconds(15));
    assertThat(c.convert("2m")).isEqualTo(Duration.ofMinutes(2));
    assertThat(c.convert("1h")).isEqualTo(Duration.ofHours(1));
    assertThat(c.convert("0s")).isZero();
    assertThat(c.convert("PT1M30S")).isEqualTo(Duration.ofSeconds(90));
    assertThat(c.convert("pt0.25s")).isEqualTo(Duration.ofMillis(250));
    assertThat(c.convert("P1D")).isEqualTo(Duration.ofDays(1));
  }

  @Test
  void shouldRefuseWhatIsNotANonNegativeDurationWithTheRule() {
    DurationConverter c = new DurationConverter();
    for (String bad :
        List.of("5", "-5s", "PT-1S", "1.5s", "abc", "", "5 s", "3d", "999999999999999999h")) {
      assertThatThrownBy(() -> c.convert(bad))
          .as(bad)
          .isInstanceOf(TypeConversionException.class)
          .hasMessage(DurationConverter.RULE);
    }
  }

  @Test
  void shouldRunWithEveryDurationOptionOnTheSharedGrammar() {
    CliRun r = run("--timeout", "2m", "--count", "3", "--state", "runnable");

    assertThat(r.status()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.out()).isEqualTo("120000 3 RUNNABLE\n");
  }

  @Test
  void shouldNameTheOptionTheValueAndTheRuleOnOneLine() {
    assertOneLine(run("--timeout", "5"), "--timeout: 5 (expected: " + DurationConverter.RULE + ")");
    assertOneLine(run("--count", "x"), "--count: x (expected: an integer)");
    assertOneLine(run("--ratio", "y"), "--ratio: y (expected: a number)");
    assertOneLine(
        run("--state", "ASLEEP"),
        "--state: ASLEEP (expected: one of NEW, RUNNABLE, BLOCKED, WAITING, TIMED_WAITING,"
            + " TERMINATED)");
    assertOneLine(run("--count"), "--count: missing value (expected: --count <count>)");
    assertOneLine(
        run("--cuont", "1"),
        "unknown option: --cuont (expected: one of --timeout, --count, --ratio, --state, --fail,"
            + " --help, --version)");
    assertOneLine(run("extra"), "unexpected argument: extra (expected: one of --timeout");
  }

  @Test
  void shouldTurnALibrarysTypedExceptionIntoOneEscapedLine() {
    assertOneLine(run("--fail", "arg"), "pool: 7\\x0a-1 (expected: start <= end)");
    assertOneLine(run("--fail", "state"), "--pin: exclusive (expected: a spare CPU)");
    assertOneLine(run("--timeout", "1\r\n\t"), "--timeout: 1\\x0d\\x0a\\x09 (expected: ");
  }

  @Test
  void shouldLeaveAFailureThatIsNotAConfigurationToPicocliWithItsStackTrace() {
    CliRun r = run("--fail", "bug");

    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err()).contains("a bug, not a configuration").contains("\tat ");
  }

  @Test
  void shouldPrintHelpAndVersionWithExitZero() {
    CliRun help = run("--help");
    CliRun version = run("-V");

    assertThat(help.status()).isZero();
    assertThat(help.out()).startsWith("Usage: probe").contains("--timeout=<timeout>");
    assertThat(version.status()).isZero();
    assertThat(version.out())
        .startsWith("probe (Affinity Kit " + KitVersion.version() + ")\nJava ");
    assertThat(KitVersion.version()).matches("\\d+\\.\\d+\\.\\d+.*");
  }

  private static void assertOneLine(CliRun r, String start) {
    r.assertUsageError(start);
    assertThat(r.out()).isEmpty();
  }
}
