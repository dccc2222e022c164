/**
 * JDK Flight Recorder events of Affinity Kit, category {@code Affinity Kit}: a thread pinned and
 * released, a lease found moved or its reservation lost, an isolation or a confinement applied and
 * undone. Enable them by name ({@code io.github.affinitykit.*}) in a recording; none has a stack
 * trace. The library emits them only where the runtime has the {@code jdk.jfr} module (a jlink'd
 * runtime may not): without it, nothing is recorded and nothing fails. The module does not export
 * this package: the events are package-private, read by their names, and built only by {@code
 * FlightEvents} for {@code core.internal.Flight}. The watchdog's own events (a re-pin, each pinned
 * CPU at a check) are affinity-watchdog's.
 */
package io.github.affinitykit.core.jfr;
