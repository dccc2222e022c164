package io.github.affinitykit.netty.gateway;

import java.util.Locale;

/**
 * Writes the Prometheus text exposition format (version 0.0.4): one {@code # HELP} and one {@code #
 * TYPE} line per family, then its samples; label values escaped.
 *
 * <p>Thread safety: not thread-safe; one writer per scrape.
 */
final class PromWriter {
  private final StringBuilder out = new StringBuilder(8192);

  /** Starts family {@code name} of {@code type} (counter, gauge). */
  PromWriter family(String name, String type, String help) {
    out.append("# HELP ")
        .append(name)
        .append(' ')
        .append(help.replace("\\", "\\\\").replace("\n", "\\n"))
        .append('\n');
    out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    return this;
  }

  /** Writes a sample; {@code labels} alternate names and values. */
  PromWriter sample(String name, long value, String... labels) {
    head(name, labels).append(value).append('\n');
    return this;
  }

  /** Writes a sample with a fractional value. */
  PromWriter sample(String name, double value, String... labels) {
    head(name, labels).append(String.format(Locale.ROOT, "%.6f", value)).append('\n');
    return this;
  }

  private StringBuilder head(String name, String... labels) {
    out.append(name);
    if (labels.length > 0) {
      out.append('{');
      for (int i = 0; i < labels.length; i += 2) {
        if (i > 0) {
          out.append(',');
        }
        out.append(labels[i]).append("=\"").append(escape(labels[i + 1])).append('"');
      }
      out.append('}');
    }
    return out.append(' ');
  }

  static String escape(String value) {
    return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }

  @Override
  public String toString() {
    return out.toString();
  }
}
