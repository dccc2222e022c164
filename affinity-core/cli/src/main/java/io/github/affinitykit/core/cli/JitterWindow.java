package io.github.affinitykit.core.cli;

import java.time.Duration;

/**
 * The one rule for a sampling window on the command line ({@code doctor --jitter}, {@code jitter
 * --window}): from 1 s, enough for the tick and the usual interrupts to show, to 10 min, since a
 * sampling thread is a busy CPU for all of it.
 *
 * <p>Thread safety: constants only.
 */
final class JitterWindow {
  static final Duration MIN = Duration.ofSeconds(1);
  static final Duration MAX = Duration.ofMinutes(10);
  static final String RULE = "a duration from 1s to 10m";

  private JitterWindow() {}

  /** Whether {@code window} is within the rule. */
  static boolean ok(Duration window) {
    return window.compareTo(MIN) >= 0 && window.compareTo(MAX) <= 0;
  }
}
