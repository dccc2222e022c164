package io.github.affinitykit.core.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cli.CommandLines;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/**
 * One run of a command line in a test: its exit status and what it printed. Shared by the
 * command-line tests of every module (core's test-jar).
 *
 * @param status the exit status
 * @param out what went to the output stream
 * @param err what went to the error stream
 */
public record CliRun(int status, String out, String err) {
  /** A command line bound to its arguments, run against two streams. */
  @FunctionalInterface
  public interface Line {
    /** Runs, printing to {@code out} and {@code err}; returns the exit status. */
    int run(PrintStream out, PrintStream err);
  }

  /** Runs {@code line} and captures what it printed (UTF-8). */
  public static CliRun of(Line line) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        line.run(
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new CliRun(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /**
   * Asserts that the usage help of {@code command} renders without picocli's warnings (a bare
   * {@code %} in a description makes it warn on {@code System.err} at every {@code --help}).
   */
  public static void assertHelpRendersCleanly(Object command) {
    PrintStream saved = System.err;
    ByteArrayOutputStream warnings = new ByteArrayOutputStream();
    System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
    try {
      assertThat(new CommandLine(command).getUsageMessage()).startsWith("Usage: ");
    } finally {
      System.setErr(saved);
    }
    assertThat(warnings.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  /**
   * Asserts a bad configuration's report: exit status 2 and exactly one line on the error stream,
   * starting with {@code start}, no stack trace.
   *
   * @return this, for more assertions
   */
  public CliRun assertUsageError(String start) {
    assertThat(status).as(err).isEqualTo(CommandLines.USAGE_ERROR);
    assertThat(err).startsWith(start).endsWith("\n").doesNotContain("\tat ");
    assertThat(err.lines()).hasSize(1);
    return this;
  }
}
