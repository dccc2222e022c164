package io.github.affinitykit.core.internal;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import java.nio.file.Path;

/**
 * Child process of {@link BrokenFlightProviderIT}: {@code <lockDir>}. Pins this thread through a
 * group of one kit whose locks are in {@code lockDir} and prints {@code PINNED <status>}.
 */
public final class BrokenFlightMain {
  private BrokenFlightMain() {}

  public static void main(String[] args) {
    AffinityKit kit =
        AffinityKit.create(
            HostCpus.probe(),
            AffinityBackend.detect(),
            CpuReservations.inDirectory(Path.of(args[0])));
    try (CpuLease lease = CpuGroup.builder(kit, "flight").build().join().bind()) {
      System.out.println("PINNED " + lease.status());
    }
  }
}
