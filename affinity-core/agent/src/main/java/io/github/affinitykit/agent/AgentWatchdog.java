package io.github.affinitykit.agent;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.watchdog.RepinPolicy;
import io.github.affinitykit.watchdog.Watchdog;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The agent's one contact with the watchdog: started on the agent's kit with the repin policy of
 * {@code -Daffinitykit.agent.repin} ({@code report}, the default; {@code repin}; {@code replan}: a
 * thread whose CPU left its cpuset is re-planned onto a free CPU of the new set), each event one
 * line to the agent's output.
 *
 * <p>Thread safety: as {@link Watchdog}.
 */
final class AgentWatchdog {
  /** The system property naming the watchdog's repin policy. */
  static final String REPIN_PROPERTY = "affinitykit.agent.repin";

  private AgentWatchdog() {}

  /**
   * {@return the policy {@code value} names ({@code report}, {@code repin}, {@code replan}, any
   * case; unset or blank: report)} A bad value is one line to {@code err} and the watchdog reports.
   */
  static RepinPolicy policy(String value, Consumer<String> err) {
    if (value == null || value.isBlank()) {
      return RepinPolicy.REPORT;
    }
    try {
      return RepinPolicy.valueOf(value.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      err.accept(
          "-D"
              + REPIN_PROPERTY
              + ": "
              + value
              + " (expected: report, repin or replan); the watchdog reports");
      return RepinPolicy.REPORT;
    }
  }

  /** {@return how the start line says {@code policy}: reporting, re-pinning, re-planning} */
  static String words(RepinPolicy policy) {
    return switch (policy) {
      case REPORT -> "reporting";
      case REPIN -> "re-pinning";
      case REPLAN -> "re-planning";
    };
  }

  /** Starts the watchdog of {@code kit}, checking every {@code period} under {@code policy}. */
  static AutoCloseable start(
      AffinityKit kit, Duration period, RepinPolicy policy, Consumer<String> out) {
    return Watchdog.builder(kit)
        .period(period)
        .repin(policy)
        .listener(e -> out.accept(e.toString()))
        .start();
  }
}
