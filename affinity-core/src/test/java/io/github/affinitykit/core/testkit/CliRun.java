package io.github.affinitykit.core.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * One run of a command line in a test: its exit status and what it printed. Shared by the
 * command-line tests of every application (core's test-jar; it needs no command-line library).
 *
 * @param status the exit status
 * @param out what went to the output stream
 * @param err what went to the error stream
 */
public record CliRun(int status, String out, String err) {
  /**
   * The exit status of every command line of the project after a bad option or configuration (the
   * README's promise; affinity-cli's {@code CommandLines.USAGE_ERROR}).
   */
  public static final int USAGE_ERROR = 2;

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
   * Asserts that the usage help of the picocli command {@code command} renders, starting with
   * {@code Usage: }, without picocli's warnings (a bare {@code %} in a description makes it warn on
   * {@code System.err} at every {@code --help}). picocli is the application's, not core's: it is
   * loaded from the caller's class path.
   */
  public static void assertHelpRendersCleanly(Object command) {
    PrintStream saved = System.err;
    ByteArrayOutputStream warnings = new ByteArrayOutputStream();
    System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
    try {
      assertThat(usageMessage(command)).startsWith("Usage: ");
    } finally {
      System.setErr(saved);
    }
    assertThat(warnings.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  /**
   * {@code new CommandLine(command).getUsageMessage()}, picocli found on the caller's class path.
   */
  private static String usageMessage(Object command) {
    try {
      Class<?> commandLine = Class.forName("picocli.CommandLine");
      Object line = commandLine.getConstructor(Object.class).newInstance(command);
      return (String) commandLine.getMethod("getUsageMessage").invoke(line);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("picocli cannot render the help of " + command, e);
    }
  }

  /**
   * Asserts a bad configuration's report: exit status {@value #USAGE_ERROR} and exactly one line on
   * the error stream, starting with {@code start}, no stack trace.
   *
   * @return this, for more assertions
   */
  public CliRun assertUsageError(String start) {
    assertThat(status).as(err).isEqualTo(USAGE_ERROR);
    assertThat(err).startsWith(start).endsWith("\n").doesNotContain("\tat ");
    assertThat(err.lines()).hasSize(1);
    return this;
  }
}
