package io.github.affinitykit.core.reservation;

import io.github.affinitykit.core.internal.natives.NativeLayer;
import java.nio.file.Path;

/**
 * Reservations of their own on a lock directory, as another process has them, for tests in one JVM:
 * their locks are open file description locks (or Java's classic ones where no native layer loads),
 * which conflict with this JVM's shared instance as another process's do.
 */
public final class OtherProcess {
  private OtherProcess() {}

  /**
   * An instance on {@code directory} sharing no descriptor with {@link
   * CpuReservations#inDirectory}.
   */
  public static CpuReservations on(Path directory) {
    return CpuReservations.withLayer(directory, NativeLayer.system());
  }
}
