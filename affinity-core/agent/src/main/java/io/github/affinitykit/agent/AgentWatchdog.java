package io.github.affinitykit.agent;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.watchdog.Watchdog;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * The agent's one contact with the watchdog: started on the agent's kit, reporting (the default
 * repin policy), each event one line to the agent's output.
 *
 * <p>Thread safety: as {@link Watchdog}.
 */
final class AgentWatchdog {
  private AgentWatchdog() {}

  /** Starts the watchdog of {@code kit}, checking every {@code period}. */
  static AutoCloseable start(AffinityKit kit, Duration period, Consumer<String> out) {
    return Watchdog.builder(kit).period(period).listener(e -> out.accept(e.toString())).start();
  }
}
