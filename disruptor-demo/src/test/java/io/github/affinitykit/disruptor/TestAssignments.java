package io.github.affinitykit.disruptor;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.CpuGroupBuilder;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.placement.Placement;
import io.github.affinitykit.core.placement.RunOutPolicy;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.reservation.Reservation;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

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
    List<Reservation> taken = new ArrayList<>();
    busy.forEach(c -> kit.reservations().tryReserve(c).reservation().ifPresent(taken::add));
    CpuGroupBuilder g = kit.group("t").pool(pool).placements(placements).runOut(runOut);
    if (pinning == Pinning.UNPINNED) {
      g.unpinned("pinning: unpinned");
    }
    CpuGroup group = g.build();
    try {
      return ConsumerThreads.seat(group, pinning, consumers).layout(pinning);
    } finally { // the plan is all a test reads: free the CPUs and leave nothing in /tmp
      group.close();
      taken.forEach(Reservation::close);
      delete(dir);
    }
  }

  private static void delete(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.toList()) {
        Files.deleteIfExists(f);
      }
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
