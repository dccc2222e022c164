package io.github.affinitykit.micrometer;

import static io.github.affinitykit.micrometer.AffinityMeterBinder.WATCHDOG_CHECKS;
import static io.github.affinitykit.micrometer.AffinityMeterBinder.WATCHDOG_CHECK_FAILURES;
import static io.github.affinitykit.micrometer.AffinityMeterBinder.WATCHDOG_EVENTS;
import static io.github.affinitykit.micrometer.AffinityMeterBinder.WATCHDOG_LISTENER_FAILURES;

import io.github.affinitykit.watchdog.WatchEvent.Kind;
import io.github.affinitykit.watchdog.Watchdog;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * A {@link Watchdog}'s counters as function counters: its checks, the changes they found by kind,
 * and the failures it survived. Fixed meters, registered once per registry.
 *
 * <p>Thread safety: stateless; the watchdog's counters may be read from any thread.
 */
final class WatchdogMeters {
  private WatchdogMeters() {}

  /**
   * Registers {@code dog}'s counters in {@code registry}: one events series per kind, 0 included.
   */
  static void register(MeterRegistry registry, Watchdog dog) {
    for (Kind kind : Kind.values()) {
      FunctionCounter.builder(WATCHDOG_EVENTS, dog, d -> d.count(kind))
          .tag("kind", BoundMeters.lower(kind))
          .description("Changes the watchdog's checks found, by kind.")
          .register(registry);
    }
    FunctionCounter.builder(WATCHDOG_CHECKS, dog, Watchdog::checks)
        .description("Checks the watchdog ran, periodic and on demand.")
        .register(registry);
    FunctionCounter.builder(WATCHDOG_CHECK_FAILURES, dog, Watchdog::checkFailures)
        .description("Periodic checks that threw (the watchdog goes on).")
        .register(registry);
    FunctionCounter.builder(WATCHDOG_LISTENER_FAILURES, dog, Watchdog::listenerFailures)
        .description("Times a watchdog listener threw.")
        .register(registry);
  }
}
