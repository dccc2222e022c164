package io.github.affinitykit.hostreport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.testkit.FakeHost;
import io.github.affinitykit.core.testkit.Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Placement next to a NIC on the two-socket E5 model: {@code eth0} on node 1 (CPUs 6-11, 18-23)
 * with its queue IRQs on 6, 7, 8 and 20, {@code eth1} on node 0, {@code lo} and {@code docker0}
 * virtual; its pool is 19-23 (isolated).
 */
class NicPlacementTest {
  private static final HostCpus E5 = HostCpus.probe(Fixtures.root(Fixtures.E5_NIC));

  @Test
  void shouldTakeThePoolsCpusOnTheNicsNodeLessThoseTakingItsIrqs() {
    NicPlacement p = NicPlacement.near(E5, CpuSet.parse("0-23"), "eth0", IrqSharing.AVOID);
    assertThat(p.node()).isEqualTo(1);
    assertThat(p.cpus()).isEqualTo(CpuSet.parse("9-11,18-19,21-23"));
    assertThat(p.applied()).isEqualTo(IrqSharing.AVOID);
    assertThat(p.reason())
        .isEqualTo(
            "eth0 is on node 1: the pool's CPUs there are 6-11,18-23, less 6-8,20 (its IRQs)");
  }

  @Test
  void shouldKeepTheIrqCpusWhenAskedToShare() {
    NicPlacement p = NicPlacement.near(E5, E5.pool().cpus(), "eth0", IrqSharing.SHARE);
    assertThat(E5.pool().cpus()).isEqualTo(CpuSet.parse("19-23"));
    assertThat(p.cpus()).isEqualTo(CpuSet.parse("19-23"));
    assertThat(p.applied()).isEqualTo(IrqSharing.SHARE);
    assertThat(p.reason()).endsWith("(its IRQs on 20)");
  }

  @Test
  void shouldShareAndSaySoWhenEveryCpuThereTakesTheIrqs() {
    NicPlacement p = NicPlacement.near(E5, CpuSet.of(6, 7, 20), "eth0", IrqSharing.AVOID);
    assertThat(p.cpus()).isEqualTo(CpuSet.of(6, 7, 20));
    assertThat(p.asked()).isEqualTo(IrqSharing.AVOID);
    assertThat(p.applied()).isEqualTo(IrqSharing.SHARE);
    assertThat(p.reason()).contains("every one takes its IRQs");
  }

  @Test
  void shouldKeepThePoolWholeWhenNoneOfItIsOnTheNicsNode() {
    NicPlacement p = NicPlacement.near(E5, E5.pool().cpus(), "eth1", IrqSharing.AVOID);
    assertThat(p.node()).isEqualTo(0);
    assertThat(p.cpus()).isEqualTo(CpuSet.parse("19-23"));
    assertThat(p.reason()).isEqualTo("eth1: no CPU of the pool is on node 0; pool 19-23");
  }

  @Test
  void shouldKeepThePoolWholeForAVirtualInterface() {
    NicPlacement p = NicPlacement.near(E5, E5.pool().cpus(), "docker0", IrqSharing.AVOID);
    assertThat(p.node()).isEqualTo(-1);
    assertThat(p.cpus()).isEqualTo(E5.pool().cpus());
    assertThat(p.reason()).startsWith("docker0 is virtual");
  }

  @Test
  void shouldLetTheLocalCpusStandForAnUnknownNodeOnAOneNodeHostAndStillAvoidTheIrqs(
      @TempDir Path root) throws IOException {
    String pci = "sys/devices/pci0000:00/0000:00:03.0";
    FakeHost.create(root, 4, 1)
        .file(pci + "/numa_node", "-1")
        .file(pci + "/local_cpulist", "0-3")
        .file(pci + "/msi_irqs/25", "msix")
        .file(pci + "/net/eth0/queues/rx-0/rps_cpus", "0")
        .file("proc/irq/25/effective_affinity_list", "2")
        .file("proc/irq/25/smp_affinity_list", "2")
        .file("proc/interrupts", "  CPU0 CPU1 CPU2 CPU3\n 25: 0 0 9 0 PCI-MSI 1-edge eth0-rx-0\n");
    link(root.resolve(pci + "/net/eth0/device"), "../../../0000:00:03.0");
    link(root.resolve("sys/class/net/eth0"), "../../devices/pci0000:00/0000:00:03.0/net/eth0");
    HostCpus host = HostCpus.probe(root);

    NicPlacement p = NicPlacement.near(host, CpuSet.parse("1-3"), "eth0", IrqSharing.AVOID);

    assertThat(p.node()).isEqualTo(-1);
    assertThat(p.cpus()).isEqualTo(CpuSet.of(1, 3));
    assertThat(p.reason())
        .isEqualTo(
            "eth0's node is unknown, its local CPUs 0-3: the pool's CPUs there are 1-3,"
                + " less 2 (its IRQs)");
  }

  private static void link(Path at, String target) throws IOException {
    Files.createDirectories(at.getParent());
    Files.createSymbolicLink(at, Paths.get(target));
  }

  @Test
  void shouldRefuseAnInterfaceTheHostDoesNotHaveNamingThoseItHas() {
    assertThatThrownBy(() -> NicPlacement.near(E5, E5.pool().cpus(), "eth9", IrqSharing.AVOID))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "nic: eth9 (expected: a network interface of this host: docker0, eth0, eth1, lo)");
    assertThatThrownBy(() -> NicPlacement.near(E5, CpuSet.empty(), "eth0", IrqSharing.AVOID))
        .hasMessage("pool: empty (expected: the CPUs to choose from)");
  }
}
