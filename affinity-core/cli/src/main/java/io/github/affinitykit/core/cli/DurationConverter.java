package io.github.affinitykit.core.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The one duration grammar of every Affinity Kit command line: a whole number with a unit, {@code
 * 500ms}, {@code 3s}, {@code 2m}, {@code 1h} (any case, surrounding blanks ignored), or ISO-8601
 * ({@code PT1M30S}, {@code P1D}). Negative durations are refused; zero is accepted ({@code 0s}).
 *
 * <p>{@link CommandLines#configure} registers it for every {@link Duration} option, so a command
 * only declares {@code @Option(...) Duration timeout}. A value it refuses becomes the one-line
 * error {@code --timeout: 5 (expected: a duration >= 0 such as ...)}.
 *
 * <p>Thread safety: stateless; safe to share.
 */
public final class DurationConverter implements ITypeConverter<Duration> {
  /** The rule a refused value is reported with. */
  public static final String RULE = "a duration >= 0 such as 500ms, 3s, 2m, 1h or ISO-8601 PT1M30S";

  private static final Pattern WITH_UNIT = Pattern.compile("(\\d{1,18})(ms|s|m|h)");

  /** Creates the converter (picocli instantiates it reflectively, too). */
  public DurationConverter() {
    // stateless
  }

  /**
   * Parses {@code text}.
   *
   * @throws TypeConversionException with {@link #RULE} as its message if {@code text} is not a
   *     non-negative duration of the grammar
   */
  @Override
  public Duration convert(String text) {
    String t = text.strip().toLowerCase(Locale.ROOT);
    Matcher m = WITH_UNIT.matcher(t);
    try {
      Duration d;
      if (m.matches()) {
        long n = Long.parseLong(m.group(1));
        d =
            switch (m.group(2)) {
              case "ms" -> Duration.ofMillis(n);
              case "s" -> Duration.ofSeconds(n);
              case "m" -> Duration.ofMinutes(n);
              default -> Duration.ofHours(n);
            };
      } else {
        d = Duration.parse(t.toUpperCase(Locale.ROOT));
      }
      if (!d.isNegative()) {
        return d;
      }
    } catch (DateTimeParseException | ArithmeticException e) {
      // refused below with the rule
    }
    throw new TypeConversionException(RULE);
  }
}
