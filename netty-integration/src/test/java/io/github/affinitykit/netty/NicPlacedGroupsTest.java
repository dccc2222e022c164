package io.github.affinitykit.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.Fixtures;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import io.github.affinitykit.hostreport.IrqSharing;
import io.github.affinitykit.hostreport.NicPlacement;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Worker loops placed next to a NIC on the two-socket E5 model (recorded pinning): {@code eth0} on
 * node 1 with a queue IRQ on CPU 20 of the pool 19-23.
 */
@Timeout(30)
class NicPlacedGroupsTest {
  @TempDir Path locks;

  private AffinityKit e5() {
    HostCpus host = HostCpus.probe(Fixtures.root(Fixtures.E5_NIC));
    return AffinityKit.create(
        host, new RecordingAffinityBackend(host.reachable()), CpuReservations.inDirectory(locks));
  }

  @Test
  void shouldPlaceTheWorkersOnTheNicsNodeOffItsIrqCpusAndReportWhy() {
    try (PinnedServerGroups groups =
        PinnedServerGroups.builder(e5())
            .transport(Transport.NIO)
            .nic("eth0", IrqSharing.AVOID)
            .build()) {
      NicPlacement p = groups.nic().orElseThrow();
      assertThat(p.cpus()).isEqualTo(CpuSet.parse("19,21-23"));
      AssignmentReport report = groups.report();
      assertThat(report.nic()).contains(p);
      assertThat(report.group("worker")).hasSize(3); // the chosen CPUs, less one for the boss
      report.group("worker").forEach(l -> assertThat(p.cpus().contains(l.cpu())).isTrue());
      assertThat(report.toString())
          .contains(
              "near eth0 (IRQs: avoid): eth0 is on node 1: the pool's CPUs there are 19-23,"
                  + " less 20 (its IRQs)");
    }
  }

  @Test
  void shouldKeepTheIrqCpuWhenAskedToShare() {
    try (PinnedServerGroups groups =
        PinnedServerGroups.builder(e5())
            .transport(Transport.NIO)
            .workers(5)
            .nic("eth0", IrqSharing.SHARE)
            .build()) {
      assertThat(groups.report().group("worker"))
          .extracting(LoopAssignment::cpu)
          .containsExactlyInAnyOrder(19, 20, 21, 22, 23);
      assertThat(groups.report().toString()).contains("near eth0 (IRQs: share)");
    }
  }

  @Test
  void shouldRefuseAnInterfaceTheHostDoesNotHaveAndStartNothing() {
    ServerGroupsBuilder b =
        PinnedServerGroups.builder(e5()).transport(Transport.NIO).nic("eth7", IrqSharing.AVOID);
    assertThatThrownBy(b::build)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("nic: eth7 (expected: a network interface of this host:");
  }
}
