package io.github.affinitykit.netty;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import java.nio.file.Path;

/** A kit on this host's real backend, pool = every CPU this process may use, private locks. */
final class LiveKit {
  private LiveKit() {}

  static AffinityKit create(Path locks) {
    HostCpus host = HostCpus.probe();
    return create(locks, host.reachable());
  }

  static AffinityKit create(Path locks, CpuSet pool) {
    HostCpus host = HostCpus.probe();
    return AffinityKit.create(
        host, AffinityBackend.detect(), CpuReservations.inDirectory(locks), host.pool(pool));
  }
}
