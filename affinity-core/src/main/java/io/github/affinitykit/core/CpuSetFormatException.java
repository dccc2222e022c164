package io.github.affinitykit.core;

import io.github.affinitykit.core.internal.Printable;

/**
 * A cpu list or cpu mask that the kernel's grammar rejects: names the input, the position of the
 * offending character (0-based) and the rule it broke. The input often comes from a file or an
 * environment variable: the message shows it through {@link Printable#of(String)} (control
 * characters escaped, long inputs cut); {@link #input()} returns it as it was.
 *
 * <p>Thread safety: immutable.
 */
public final class CpuSetFormatException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String input;
  private final int position;
  private final String rule;

  /**
   * Creates the exception.
   *
   * @param kind what was parsed, for the message ({@code "cpu list"} or {@code "cpu mask"})
   * @param input the whole input
   * @param position the 0-based index of the offending character
   * @param rule the rule broken, as {@code "expected: ..."} text
   */
  public CpuSetFormatException(String kind, String input, int position, String rule) {
    super(kind + " \"" + Printable.of(input) + "\": at position " + position + ": " + rule);
    this.input = input;
    this.position = position;
    this.rule = rule;
  }

  /** Returns the rejected input. */
  public String input() {
    return input;
  }

  /** Returns the 0-based position of the offending character. */
  public int position() {
    return position;
  }

  /** Returns the rule broken. */
  public String rule() {
    return rule;
  }
}
