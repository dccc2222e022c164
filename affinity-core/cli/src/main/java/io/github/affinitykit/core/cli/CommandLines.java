package io.github.affinitykit.core.cli;

import io.github.affinitykit.core.cpu.CpuSet;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.CharBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * What every Affinity Kit command line shares (the doctor, the load test, the Disruptor demo, the
 * gateway): picocli configured with the one {@link DurationConverter duration grammar}, and a bad
 * configuration reported as one line {@code name: value (expected: rule)} on the error stream with
 * exit status {@value #USAGE_ERROR}, no stack trace. {@code --help} and {@code --version} come from
 * {@code @Command(mixinStandardHelpOptions = true, versionProvider = KitVersion.class)}.
 *
 * <p>A command reports a value its options' types cannot check with {@link #badValue}, and runs the
 * steps that read configuration outside its options (a pool named by {@code -Daffinitykit.pool} or
 * {@code AFFINITYKIT_POOL}, a pinning request the host cannot satisfy) through {@link #configured}:
 * the library keeps throwing its documented exceptions, the command line turns them into the one
 * line.
 *
 * <p>This class and the rest of this package's command classes are affinity-cli's, never the
 * library's: the project's applications (doctor, gateway, load test, demo) depend on affinity-cli
 * and picocli, and shade both into their runnable jars; a library user of affinity-core gets
 * neither.
 *
 * <p>Thread safety: stateless; each {@link CommandLine} it configures belongs to one thread.
 */
public final class CommandLines {
  /** The exit status of a bad configuration (picocli's {@code ExitCode.USAGE}). */
  public static final int USAGE_ERROR = 2;

  private CommandLines() {}

  /**
   * Configures {@code commandLine} and its subcommands added so far: the duration grammar for every
   * {@link Duration} option, enum values in any case, a repeated option's last value wins, and
   * one-line errors.
   *
   * @return {@code commandLine}
   */
  public static CommandLine configure(CommandLine commandLine) {
    return commandLine
        .registerConverter(Duration.class, new DurationConverter())
        .registerConverter(CpuSet.class, new CpuListConverter())
        .setCaseInsensitiveEnumValuesAllowed(true)
        .setOverwrittenOptionsAllowed(true)
        .setParameterExceptionHandler(new OneLineErrors());
  }

  /**
   * Configures {@code commandLine}, runs it with {@code args} writing to {@code out} and {@code
   * err}, and returns its exit status: the command's own, 0 after {@code --help} or {@code
   * --version}, {@value #USAGE_ERROR} after a one-line error. A {@code main} passes the status to
   * {@link System#exit}.
   */
  public static int execute(
      CommandLine commandLine, List<String> args, PrintStream out, PrintStream err) {
    configure(commandLine).setOut(writer(out)).setErr(writer(err));
    return commandLine.execute(args.toArray(String[]::new));
  }

  /**
   * Returns the usage error {@code name: value (expected: rule)} for the command of {@code spec};
   * throw it from the command (picocli reports it like a parse error). When {@code name} is an
   * option the user typed, the value shown is the text typed ({@code -1}, not {@code -1.0}).
   */
  public static ParameterException badValue(
      CommandSpec spec, String name, Object value, String rule) {
    OptionSpec option = spec.findOption(name);
    Object shown =
        option == null || option.originalStringValues().isEmpty()
            ? value
            : option.originalStringValues().get(option.originalStringValues().size() - 1);
    return new ParameterException(
        spec.commandLine(), name + ": " + shown + " (expected: " + rule + ")");
  }

  /**
   * Checks a value the option's type cannot: returns quietly if {@code ok}, else throws {@link
   * #badValue}.
   */
  public static void require(CommandSpec spec, boolean ok, String name, Object value, String rule) {
    if (!ok) {
      throw badValue(spec, name, value, rule);
    }
  }

  /**
   * Runs a configuration step and returns its result; an {@link IllegalArgumentException} (a bad
   * value, such as a malformed pool) or {@link IllegalStateException} (a request the host cannot
   * satisfy) it throws becomes a usage error carrying the exception's message, which the library
   * already words as {@code name: value (expected: rule)}. Other exceptions pass through.
   */
  public static <T> T configured(CommandSpec spec, Supplier<T> step) {
    Objects.requireNonNull(step, "step");
    try {
      return step.get();
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw usageError(spec, e);
    }
  }

  /**
   * Returns the usage error carrying the message of {@code e}, a library exception that already
   * names the setting, the value and the rule; throw it from the command.
   */
  public static ParameterException usageError(CommandSpec spec, RuntimeException e) {
    return new ParameterException(spec.commandLine(), String.valueOf(e.getMessage()), e);
  }

  /** A writer that leaves encoding to {@code stream} (its charset, not the platform's). */
  private static PrintWriter writer(PrintStream stream) {
    Objects.requireNonNull(stream, "stream");
    return new PrintWriter(
        new Writer() {
          @Override
          public void write(char[] chars, int offset, int length) {
            stream.append(CharBuffer.wrap(chars, offset, length));
          }

          @Override
          public void flush() {
            stream.flush();
          }

          @Override
          public void close() {
            stream.flush();
          }
        },
        true);
  }
}
