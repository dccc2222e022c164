package io.github.affinitykit.netty;

import java.time.Duration;
import java.util.Locale;

/**
 * How long a {@link WaitPolicy#SPIN_THEN_BLOCK} loop polls without blocking after its last work
 * before it blocks: a time ({@code 50us}) or a number of empty polls ({@code 200polls}). The
 * default is {@link #DEFAULT}: 50 µs, a few times a loopback round trip, far below a scheduler
 * tick.
 *
 * <p>Thread safety: immutable.
 *
 * @param amount nanoseconds or polls, > 0
 * @param polls whether {@code amount} counts empty polls since the last work; else nanoseconds
 */
public record SpinLimit(long amount, boolean polls) {
  /** The grammar {@link #parse} reads, as error messages state it. */
  public static final String RULE = "a positive integer with ns, us, ms, s or polls";

  /** 50 µs. */
  public static final SpinLimit DEFAULT = ofTime(Duration.ofNanos(50_000));

  /**
   * Validates.
   *
   * @param amount nanoseconds or polls, > 0
   * @param polls whether {@code amount} counts empty polls; else nanoseconds
   * @throws IllegalArgumentException if {@code amount} is not positive
   */
  public SpinLimit {
    if (amount <= 0) {
      throw new IllegalArgumentException("spin limit: " + amount + " (expected: > 0)");
    }
  }

  /**
   * Spin for {@code time} after the last work.
   *
   * @param time the spin time, at least 1 ns; not null
   * @return a limit in nanoseconds
   */
  public static SpinLimit ofTime(Duration time) {
    return new SpinLimit(time.toNanos(), false);
  }

  /**
   * Spin for {@code polls} empty polls after the last work.
   *
   * @param polls the number of empty polls, > 0
   * @return a limit in empty polls
   */
  public static SpinLimit ofPolls(long polls) {
    return new SpinLimit(polls, true);
  }

  /**
   * Parses {@code <n>ns}, {@code <n>us} (or {@code µs}), {@code <n>ms}, {@code <n>s} or {@code
   * <n>polls}, n a positive integer.
   *
   * @param text the limit, e.g. {@code 50us}; case and surrounding blanks are ignored; not null
   * @return the limit, a time in nanoseconds ({@code 1ms} is 1,000,000 ns)
   * @throws IllegalArgumentException naming the value and the grammar
   */
  public static SpinLimit parse(String text) {
    String t = text.strip().toLowerCase(Locale.ROOT);
    int i = 0;
    while (i < t.length() && Character.isDigit(t.charAt(i))) {
      i++;
    }
    long n;
    try {
      n = i == 0 ? -1 : Long.parseLong(t.substring(0, i));
    } catch (NumberFormatException e) {
      n = -1;
    }
    long scale =
        switch (t.substring(i)) {
          case "polls" -> 0;
          case "ns" -> 1;
          case "us", "µs" -> 1_000;
          case "ms" -> 1_000_000;
          case "s" -> 1_000_000_000;
          default -> -1;
        };
    if (n <= 0 || scale < 0 || (scale > 0 && n > Long.MAX_VALUE / scale)) {
      throw new IllegalArgumentException("spin limit: " + text + " (expected: " + RULE + ")");
    }
    return scale == 0 ? ofPolls(n) : new SpinLimit(n * scale, false);
  }

  /** Returns {@code 50us} or {@code 200polls}: what {@link #parse} reads back. */
  @Override
  public String toString() {
    if (polls) {
      return amount + "polls";
    }
    return amount % 1_000 == 0 ? amount / 1_000 + "us" : amount + "ns";
  }
}
