package io.github.affinitykit.core.internal;

import java.lang.System.Logger.Level;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * What the library tells JDK Flight Recorder: affinity-jfr implements it (its events, {@code
 * io.github.affinitykit.*}) and core finds it with {@link ServiceLoader}; without the artifact
 * every call does nothing. See ARCHITECTURE.md, "Flight Recorder events".
 *
 * <p>Thread safety: implementations take calls from any thread at once.
 */
public interface Flight {
  /** {@return the implementation on the path, looked up at the first event, or a no-op} */
  static Flight get() {
    return Found.FLIGHT;
  }

  /** A thread bound by its seat: {@code cpu} -1 if none; {@code policy} its memory's, as text. */
  default void pinned(
      String group, String member, int cpu, int tid, String status, String reason, Object policy) {}

  /** A lease closed, with its status as it closed. */
  default void released(int cpu, int tid, String status) {}

  /** A lease found moved: {@code allowed} is the CPUs the kernel allows it on now. */
  default void moved(int cpu, int tid, String allowed) {}

  /** A lease's reservation found lost, with the seat's reason. */
  default void lost(int cpu, int tid, String reason) {}

  /** An isolation or confinement ({@code kind}) made, refused or undone; {@code detail}: how. */
  default void isolation(String kind, String cpus, String status, String detail) {}

  /** The lookup, done once: at the first event, not when core's classes load. */
  final class Found {
    private static final Flight NONE = new Flight() {};
    static final Flight FLIGHT = load();

    private Found() {}

    private static Flight load() {
      try {
        return ServiceLoader.load(Flight.class, Flight.class.getClassLoader())
            .findFirst()
            .orElse(NONE);
      } catch (ServiceConfigurationError e) { // a broken entry on the path: no events, pins go on
        System.getLogger(Flight.class.getName())
            .log(Level.WARNING, "no Flight Recorder events: " + e);
        return NONE;
      }
    }
  }
}
