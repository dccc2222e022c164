package io.github.affinitykit.isolation;

import io.github.affinitykit.core.reservation.Reservation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What an isolation holds while it may be in force: its CPUs' reservations and the lock on its
 * owner file, whose holding is what makes it alive to every other process ({@link Journals}).
 *
 * <p>Thread safety: confined to the isolating thread until {@link Isolation} owns it; {@link
 * #release()} is called once, under the isolation's monitor.
 */
final class Held {
  private final List<Reservation> cpus = new ArrayList<>();
  private Optional<LockedFile> owner = Optional.empty();

  void add(Reservation r) {
    cpus.add(r);
  }

  void owner(LockedFile lock) {
    owner = Optional.of(lock);
  }

  /** Frees the CPUs, deletes the owner file and drops its lock: the owner reads dead from now. */
  void release() {
    cpus.forEach(Reservation::close);
    cpus.clear();
    owner.ifPresent(LockedFile::closeAndDelete);
    owner = Optional.empty();
  }
}
