package io.github.affinitykit.core.internal;

/**
 * Strict readers of the numbers procfs prints: unsigned decimal counters and fixed-point averages.
 * Anything else (a sign, an exponent, {@code NaN}, too many digits for a {@code long}) is rejected,
 * so one garbled file yields "unknown", never an exception.
 *
 * <p>Thread safety: stateless.
 */
public final class ProcNumbers {
  /** USER_HZ: the unit of the tick counters of {@code stat} files on every Linux ABI but Alpha. */
  public static final long NS_PER_TICK = 10_000_000L;

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

  /** The tick counter {@code s} in ns, or -1 if it is not a counter or the product overflows. */
  public static long ticksNs(String s) {
    long ticks = counter(s);
    return ticks < 0 || ticks > Long.MAX_VALUE / NS_PER_TICK ? -1 : ticks * NS_PER_TICK;
  }

  /** The decimal {@code digits[.digits]} {@code s}, or -1 if it is not one. */
  public static double fixedPoint(String s) {
    int dot = s.indexOf('.');
    String whole = dot < 0 ? s : s.substring(0, dot);
    String fraction = dot < 0 ? "0" : s.substring(dot + 1);
    if (counter(whole) < 0 || counter(fraction) < 0) {
      return -1;
    }
    return Double.parseDouble(s);
  }
}
