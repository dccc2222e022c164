package io.github.affinitykit.core.cpu;

import io.github.affinitykit.core.internal.text.Printable;

/**
 * A cpu list or cpu mask that the kernel's grammar rejects: names the input, the position of the
 * offending character (0-based) and the rule it broke. The message shows the input sanitised
 * ({@link Printable#of(String)}); {@link #input()} returns it as it was.
 *
 * <p>Thread safety: immutable.
 */
public final class CpuSetFormatException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** The rejected input, as given: not escaped or cut. */
  private final String input;

  /** The 0-based index of the offending character in the input. */
  private final int position;

  /** The rule broken, as the message ends with it. */
  private final String rule;

  /**
   * Creates the exception.
   *
   * @param kind what was parsed, for the message ({@code "cpu list"} or {@code "cpu mask"})
   * @param input the whole input
   * @param position the 0-based index of the offending character
   * @param rule what is wrong and the rule broken, such as {@code range 4-2 (expected: start <=
   *     end)}
   */
  public CpuSetFormatException(String kind, String input, int position, String rule) {
    super(kind + " \"" + Printable.of(input) + "\": at position " + position + ": " + rule);
    this.input = input;
    this.position = position;
    this.rule = rule;
  }

  /** {@return the input as given, unlike the message's escaped and cut copy} */
  public String input() {
    return input;
  }

  /** {@return an index into {@link #input()}; its length when the input ended too early} */
  public int position() {
    return position;
  }

  /** {@return the rule's text, e.g. {@code "expected: a decimal cpu number or N"}} */
  public String rule() {
    return rule;
  }
}
