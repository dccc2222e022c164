package io.github.affinitykit.netty;

import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.Reservation;
import java.util.Objects;
import java.util.Optional;

/**
 * Where loop {@code index} of a group is to run: bound to {@code cpu} under {@code reservation}
 * (which the group holds for its whole life), or, unpinned, confined to {@code mask} (empty: the
 * mask is left alone).
 *
 * @param index the loop's index in its group
 * @param cpu the planned CPU, -1 if none
 * @param reservation the group's reservation of {@code cpu}; empty when unpinned
 * @param mask the mask an unpinned loop gets; empty to leave the inherited mask
 * @param status PINNED, SHARED, UNPINNED or UNSUPPORTED
 * @param reason why: the placement, the run-out or the platform's reason
 */
record LoopSlot(
    int index,
    int cpu,
    Optional<Reservation> reservation,
    CpuSet mask,
    LeaseStatus status,
    String reason) {
  LoopSlot {
    Objects.requireNonNull(reservation, "reservation");
    Objects.requireNonNull(mask, "mask");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(reason, "reason");
  }

  static LoopSlot unpinned(int index, CpuSet mask, LeaseStatus status, String reason) {
    return new LoopSlot(index, -1, Optional.empty(), mask, status, reason);
  }
}
