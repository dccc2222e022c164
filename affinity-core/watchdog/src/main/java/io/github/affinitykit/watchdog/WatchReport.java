package io.github.affinitykit.watchdog;

import io.github.affinitykit.core.ExclusivityAudit;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one check of a {@link Watchdog} found.
 *
 * <p>Thread safety: immutable.
 *
 * @param at when the check began
 * @param leases how many open leases it checked
 * @param events the changes it found, in order (empty when nothing changed)
 * @param audit the audit of the pinned CPUs, when the watchdog audits and a CPU was pinned
 * @param took how long the check took, the audit's window included
 */
public record WatchReport(
    Instant at,
    int leases,
    List<WatchEvent> events,
    Optional<ExclusivityAudit> audit,
    Duration took) {
  /**
   * Validates and copies.
   *
   * @param at when the check began; not null
   * @param leases how many open leases it checked; not negative
   * @param events the changes it found; copied
   * @param audit the audit of the pinned CPUs, or empty; not null
   * @param took how long the check took; not null
   */
  public WatchReport {
    Objects.requireNonNull(at, "at");
    if (leases < 0) {
      throw new IllegalArgumentException("leases: " + leases + " (expected: >= 0)");
    }
    events = List.copyOf(events);
    Objects.requireNonNull(audit, "audit");
    Objects.requireNonNull(took, "took");
  }
}
