package io.github.affinitykit.core.testkit;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuIsolator;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * Kits whose isolations change a fixture tree, never this host: a synthetic host of {@code cpus}
 * CPUs under {@code root} (no tasks, no cgroups, this process with every capability), a recording
 * backend, reservations under {@code root}. Other modules' tests ask their adapters for isolation
 * with it: a {@link FakeIsolator}, or affinity-isolation's isolator of the tree ({@code b ->
 * Isolator.at(root, b, root.resolve("journal"))}).
 */
public final class FixtureKits {
  private FixtureKits() {}

  /**
   * A kit on a fresh fixture host under {@code root} isolating with a {@link FakeIsolator}; its
   * pool is every CPU but the first.
   */
  public static AffinityKit isolating(Path root, int cpus) {
    return isolating(root, cpus, b -> new FakeIsolator());
  }

  /** As {@link #isolating(Path, int)}, with the isolator {@code isolator} makes of the backend. */
  public static AffinityKit isolating(
      Path root, int cpus, Function<AffinityBackend, CpuIsolator> isolator) {
    FakeHost.create(root, cpus, 1)
        .file(
            "proc/self/status",
            "Name:\tjava\nCpus_allowed_list:\t0-" + (cpus - 1) + "\nCapEff:\t000001ffffffffff")
        .file("proc/sys/kernel/random/boot_id", "fixture");
    RecordingAffinityBackend backend = new RecordingAffinityBackend(CpuSet.range(0, cpus - 1));
    HostCpus host = HostCpus.probe(root);
    return AffinityKit.create(
        host,
        backend,
        CpuReservations.inDirectory(root.resolve("locks")),
        host.pool(),
        isolator.apply(backend));
  }
}
