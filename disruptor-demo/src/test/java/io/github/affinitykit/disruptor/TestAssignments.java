package io.github.affinitykit.disruptor;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.CpuGroupBuilder;
import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.placement.Placement;
import io.github.affinitykit.core.placement.RunOutPolicy;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Layouts as {@link PinnedDisruptorBuilder#build()} makes them, on a fixture host: the builder's
 * {@link CpuGroup} with a simulated backend and a private lock directory per plan, {@code busy}
 * CPUs held by someone else.
 */
final class TestAssignments {
  private final HostCpus host;

  private TestAssignments(HostCpus host) {
    this.host = host;
  }

  static TestAssignments on(HostCpus host) {
    return new TestAssignments(host);
  }

  PipelineAssignments plan(
      Pinning pinning,
      int consumers,
      CpuSet pool,
      CpuSet busy,
      List<Placement> placements,
      RunOutPolicy runOut) {
    Path dir;
    try {
      dir = Files.createTempDirectory("layout");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    AffinityKit kit =
        AffinityKit.create(
            host, new RecordingAffinityBackend(host.reachable()), CpuReservations.inDirectory(dir));
    busy.forEach(c -> kit.reservations().tryReserve(c));
    CpuGroupBuilder g = kit.group("t").pool(pool).placements(placements).runOut(runOut);
    if (pinning == Pinning.UNPINNED) {
      g.unpinned("pinning: unpinned");
    }
    return ConsumerThreads.seat(g.build(), pinning, consumers).layout(pinning);
  }
}
