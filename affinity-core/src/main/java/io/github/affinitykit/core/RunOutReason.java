package io.github.affinitykit.core;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.reservation.ReservationResult;
import io.github.affinitykit.core.reservation.ReservationStatus;
import java.util.List;
import java.util.StringJoiner;

/**
 * Says why a {@link CpuGroup} found no CPU for a member: {@code the pool is empty}, {@code every
 * CPU is held: ...}, or {@code cannot reserve (I/O error or refused lock file): ...}.
 *
 * <p>Thread safety: stateless.
 */
final class RunOutReason {
  private RunOutReason() {}

  /**
   * The reason, without the thread's name: {@code placement} is the planner's reason when CPUs were
   * free but none matched (else empty), {@code failures} the refusals in order.
   */
  static String of(CpuSet pool, CpuSet live, String placement, List<ReservationResult> failures) {
    if (pool.isEmpty()) {
      return "the pool is empty";
    }
    StringJoiner failed = new StringJoiner("; ");
    failures.forEach(f -> failed.add(f.reason()));
    boolean io =
        failures.stream()
            .anyMatch(
                f ->
                    f.status() == ReservationStatus.UNAVAILABLE
                        || f.status() == ReservationStatus.PERMISSION_DENIED);
    String held = live.isEmpty() ? "" : "cpu " + live + " by this group";
    if (!placement.isEmpty()) {
      return join(placement, held, failed.toString());
    }
    if (io) {
      return "cannot reserve (I/O error or refused lock file): "
          + join("", held, failed.toString());
    }
    return "every CPU is held: " + join("", held, failed.toString());
  }

  private static String join(String... parts) {
    StringJoiner out = new StringJoiner("; ");
    for (String p : parts) {
      if (!p.isEmpty()) {
        out.add(p);
      }
    }
    return out.toString();
  }
}
