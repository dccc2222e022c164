/**
 * JDK Flight Recorder events of Affinity Kit, category {@code Affinity Kit}, enabled by name
 * ({@code io.github.affinitykit.*}); not exported, built only by {@code FlightEvents} for {@code
 * core.internal.Flight}. See ARCHITECTURE.md, "Flight Recorder events".
 */
package io.github.affinitykit.core.jfr;
