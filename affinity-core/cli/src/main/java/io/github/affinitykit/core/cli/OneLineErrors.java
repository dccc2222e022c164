package io.github.affinitykit.core.cli;

import java.io.PrintWriter;
import java.util.StringJoiner;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Reports a bad command line as one line on the error stream, {@code name: value (expected: rule)},
 * and answers exit status {@value CommandLines#USAGE_ERROR}; never a stack trace, never the usage
 * text (that is what {@code --help} is for).
 *
 * <p>Thread safety: stateless; safe to share.
 */
final class OneLineErrors implements IParameterExceptionHandler {
  @Override
  public int handleParseException(ParameterException ex, String[] args) {
    PrintWriter err = ex.getCommandLine().getErr();
    err.println(oneLine(describe(ex)));
    err.flush();
    return CommandLines.USAGE_ERROR;
  }

  /** The line for {@code ex}, before control characters are escaped. */
  static String describe(ParameterException ex) {
    CommandSpec spec = ex.getCommandLine().getCommandSpec();
    if (ex instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
      return unmatched(spec, u.getUnmatched().get(0));
    }
    if (ex instanceof MissingParameterException m && !m.getMissing().isEmpty()) {
      ArgSpec arg = m.getMissing().get(0);
      return name(arg) + ": missing value (expected: " + name(arg) + " " + arg.paramLabel() + ")";
    }
    ArgSpec arg = ex.getArgSpec();
    if (arg != null && ex.getValue() != null) {
      return name(arg) + ": " + ex.getValue() + " (expected: " + rule(arg, ex.getCause()) + ")";
    }
    return ex.getMessage();
  }

  private static String unmatched(CommandSpec spec, String arg) {
    if (!arg.startsWith("-") && !spec.subcommands().isEmpty()) {
      return "unknown command: "
          + arg
          + " (expected: "
          + String.join(", ", spec.subcommands().keySet())
          + ")";
    }
    StringJoiner names = new StringJoiner(", ");
    spec.options().forEach(o -> names.add(o.longestName()));
    return (arg.startsWith("-") ? "unknown option: " : "unexpected argument: ")
        + arg
        + " (expected: "
        + (names.length() == 0 ? "no arguments" : "one of " + names)
        + ")";
  }

  private static String rule(ArgSpec arg, Throwable cause) {
    Class<?> type = arg.type();
    if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
      return "an integer";
    }
    if (type == double.class || type == Double.class) {
      return "a number";
    }
    if (type.isEnum() && arg.completionCandidates() != null) {
      StringJoiner names = new StringJoiner(", ", "one of ", "");
      arg.completionCandidates().forEach(names::add);
      return names.toString();
    }
    return cause == null ? "a " + type.getSimpleName() : cause.getMessage();
  }

  private static String name(ArgSpec arg) {
    return arg instanceof OptionSpec o ? o.longestName() : arg.paramLabel();
  }

  /** {@code text} on one line: control characters (newlines included) escaped as {@code \xNN}. */
  static String oneLine(String text) {
    StringBuilder sb = new StringBuilder(text.length());
    text.chars()
        .forEach(
            c -> {
              if (c < 0x20 || c == 0x7f) {
                sb.append(String.format("\\x%02x", c));
              } else {
                sb.append((char) c);
              }
            });
    return sb.toString();
  }
}
