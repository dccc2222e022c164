package io.github.affinitykit.core.internal;

/**
 * The strict reader of the numbers procfs prints: unsigned decimal counters. Anything else (a sign,
 * an exponent, {@code NaN}, too many digits for a {@code long}) is rejected, so one garbled file
 * yields "unknown", never an exception.
 *
 * <p>Thread safety: stateless.
 */
public final class ProcNumbers {
  private static final int MAX_DIGITS = 18; // every 18-digit number fits a long

  private ProcNumbers() {}

  /** The unsigned decimal {@code s}, or -1 if it is not one or exceeds 18 digits. */
  public static long counter(String s) {
    if (s.isEmpty() || s.length() > MAX_DIGITS) {
      return -1;
    }
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return -1;
      }
    }
    return Long.parseLong(s);
  }
}
