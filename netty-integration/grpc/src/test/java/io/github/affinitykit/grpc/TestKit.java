package io.github.affinitykit.grpc;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A kit on this host's real backend, pool = every CPU this process may use, private locks. */
final class TestKit {
  private TestKit() {}

  static AffinityKit create(Path locks) {
    HostCpus host = HostCpus.probe();
    return AffinityKit.create(
        host,
        AffinityBackend.detect(),
        CpuReservations.inDirectory(locks),
        host.pool(host.reachable()));
  }

  /** The calling thread's Cpus_allowed_list, as the kernel says it. */
  static String kernelMask() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/thread-self/status"))) {
        if (line.startsWith("Cpus_allowed_list:")) {
          return line.substring(line.indexOf(':') + 1).strip();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    throw new IllegalStateException("no Cpus_allowed_list in /proc/thread-self/status");
  }
}
