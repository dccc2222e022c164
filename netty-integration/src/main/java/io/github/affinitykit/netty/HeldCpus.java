package io.github.affinitykit.netty;

import io.github.affinitykit.core.CpuReservations;
import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.ReservationResult;
import io.github.affinitykit.core.ReservationStatus;
import java.util.EnumMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Which CPUs of a pool are not free, and why: held by this JVM, by another process, or not
 * reservable at all. Reports must not call a CPU another process holds "free".
 *
 * <p>Thread safety: stateless.
 */
final class HeldCpus {
  private HeldCpus() {}

  /**
   * Tries each of {@code cpus} once (a probe: released at once); returns those that could not be
   * reserved, by why: held by another process, or unavailable.
   */
  static Map<ReservationStatus, CpuSet> probe(CpuReservations reservations, CpuSet cpus) {
    Map<ReservationStatus, CpuSet> out = new EnumMap<>(ReservationStatus.class);
    for (int cpu : cpus.toArray()) {
      ReservationResult r = reservations.tryReserve(cpu);
      if (r.isReserved()) {
        r.orElseThrow().close();
      } else {
        out.merge(r.status(), CpuSet.of(cpu), CpuSet::union);
      }
    }
    return out;
  }

  /** Returns {@code " (held by this JVM: 1; held by other processes: 2)"}, or "" if none. */
  static String describe(Map<ReservationStatus, CpuSet> taken) {
    StringJoiner out = new StringJoiner("; ", " (", ")");
    out.setEmptyValue("");
    taken.forEach(
        (status, c) -> {
          if (!c.isEmpty()) {
            out.add(
                switch (status) {
                      case HELD_BY_THIS_JVM -> "held by this JVM: ";
                      case HELD_BY_OTHER_PROCESS -> "held by other processes: ";
                      default -> "cannot be reserved: ";
                    }
                    + c);
          }
        });
    return out.toString();
  }
}
