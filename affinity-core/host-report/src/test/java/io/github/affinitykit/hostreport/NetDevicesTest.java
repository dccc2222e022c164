package io.github.affinitykit.hostreport;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuTopology;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.internal.SysFs;
import io.github.affinitykit.core.testkit.FakeHostFiles;
import io.github.affinitykit.core.testkit.Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NetDevicesTest {
  private static final String ETH0 = "sys/devices/pci0000:80/0000:80:02.0/0000:81:00.0";
  private static final String ETH1 = "sys/devices/pci0000:00/0000:00:1c.0/0000:02:00.0";

  @TempDir Path tmp;

  private static List<NetDevice> devices(Path root) {
    return HostReport.read(HostCpus.probe(root), name -> Optional.of("true")).netDevices();
  }

  private static NetDevice device(Path root, String name) {
    return devices(root).stream().filter(d -> d.name().equals(name)).findFirst().orElseThrow();
  }

  private static NicIrq irq(int irq, String name, int queue, String effective) {
    return new NicIrq(irq, name, queue, CpuSet.parse(effective));
  }

  private static QueueMask mask(int queue, String cpus) {
    return new QueueMask(queue, CpuSet.parse(cpus));
  }

  /** A private copy of the NIC fixture, its symlinks copied as links, to break files in. */
  private Path copy() throws IOException {
    Path from = Fixtures.root(Fixtures.E5_NIC);
    Path to = tmp.resolve("root");
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : walk.toList()) {
        Path q = to.resolve(from.relativize(p).toString());
        if (Files.isSymbolicLink(p)) {
          Files.createSymbolicLink(q, Files.readSymbolicLink(p));
        } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
          Files.createDirectories(q);
        } else {
          Files.copy(p, q);
        }
      }
    }
    return to;
  }

  @Test
  void shouldReadTheI40eNicFieldByFieldWhenProbingTheE5NicFixture() {
    NetDevice eth0 = device(Fixtures.root(Fixtures.E5_NIC), "eth0");

    assertThat(eth0)
        .isEqualTo(
            new NetDevice(
                "eth0",
                true,
                "0000:81:00.0",
                1,
                CpuSet.parse("6-11,18-23"),
                4,
                4,
                List.of(mask(0, "6-11")),
                List.of(mask(0, "6"), mask(1, "7"), mask(2, "8"), mask(3, "9")),
                List.of(
                    irq(59, "i40e-0000:81:00.0:misc", -1, "6"),
                    irq(60, "i40e-eth0-TxRx-0", 0, "6"),
                    irq(61, "i40e-eth0-TxRx-1", 1, "7"),
                    irq(62, "i40e-eth0-TxRx-2", 2, "8"),
                    irq(63, "i40e-eth0-TxRx-3", 3, "20"))));
    assertThat(eth0.irqCpus()).hasToString("6-8,20");
  }

  @Test
  void shouldReadTheLegacyLineAndTheVirtualDevicesWhenProbingTheE5NicFixture() {
    List<NetDevice> all = devices(Fixtures.root(Fixtures.E5_NIC));

    assertThat(all).extracting(NetDevice::name).containsExactly("docker0", "eth0", "eth1", "lo");
    assertThat(all.get(2))
        .isEqualTo(
            new NetDevice(
                "eth1",
                true,
                "0000:02:00.0",
                0,
                CpuSet.parse("0-5,12-17"),
                1,
                1,
                List.of(), // 000000: not set
                List.of(), // one queue: no xps_cpus file
                List.of(irq(17, "eth1", -1, "1"))));
    for (NetDevice virtual : List.of(all.get(0), all.get(3))) {
      assertThat(virtual.physical()).as(virtual.name()).isFalse();
      assertThat(virtual.device()).isEmpty();
      assertThat(virtual.node()).isEqualTo(-1);
      assertThat(virtual.localCpus().isEmpty()).isTrue();
      assertThat(virtual.rxQueues()).isEqualTo(1);
      assertThat(virtual.txQueues()).isEqualTo(1);
      assertThat(virtual.rps()).isEmpty();
      assertThat(virtual.xps()).isEmpty();
      assertThat(virtual.irqs()).isEmpty();
    }
  }

  @Test
  void shouldListNoDevicesWhenTheTreeHasNoSysClassNet() {
    assertThat(HostReport.of(HostCpus.probe(Fixtures.root(Fixtures.E5))).netDevices()).isEmpty();
  }

  @Test
  void shouldReadBrokenFilesAsAbsentWhenTheyAreMissingOrGarbled() throws IOException {
    Path root = copy();
    FakeHostFiles t = new FakeHostFiles(root);
    Files.delete(root.resolve(ETH0 + "/numa_node"));
    t.file(ETH0 + "/local_cpulist", "6-x");
    t.file(ETH0 + "/net/eth0/queues/rx-0/rps_cpus", "zz,00000000");
    t.file(ETH0 + "/net/eth0/queues/tx-1/xps_cpus", "");
    t.file(ETH0 + "/msi_irqs/64", "msix"); // no /proc/irq/64, no /proc/interrupts row

    NetDevice eth0 = device(root, "eth0");

    assertThat(eth0.node()).isEqualTo(-1); // not the bridge's numa_node: a PCI NIC has its own
    assertThat(eth0.localCpus().isEmpty()).isTrue();
    assertThat(eth0.rps()).isEmpty();
    assertThat(eth0.xps()).extracting(QueueMask::queue).containsExactly(0, 2, 3);
    assertThat(eth0.irqs()).hasSize(6).last().isEqualTo(new NicIrq(64, "", -1, CpuSet.empty()));
    assertThat(eth0.irqs().get(4)).isEqualTo(irq(63, "i40e-eth0-TxRx-3", 3, "20"));
  }

  @Test
  void shouldKeepANicWhoseDeviceLinkDanglesAsPhysicalWithNothingKnown() throws IOException {
    Path root = copy();
    Path link = root.resolve(ETH1 + "/net/eth1/device");
    Files.delete(link);
    Files.createSymbolicLink(link, Paths.get("../../../0000:02:00.7"));
    new FakeHostFiles(root).file(ETH0 + "/numa_node", "-1");

    NetDevice eth1 = device(root, "eth1");

    assertThat(eth1.physical()).isTrue();
    assertThat(eth1.device()).isEqualTo("0000:02:00.7");
    assertThat(eth1.node()).isEqualTo(-1);
    assertThat(eth1.localCpus().isEmpty()).isTrue();
    assertThat(eth1.irqs()).isEmpty();
    assertThat(eth1.rxQueues()).isEqualTo(1);
    assertThat(device(root, "eth0").node()).isEqualTo(-1); // what a one-node kernel prints
  }

  @Test
  void shouldNameIrqsFromTheirProcIrqDirectoriesWhenProcInterruptsIsGarbled() throws IOException {
    Path root = copy();
    new FakeHostFiles(root).file("proc/interrupts", "garbage\n 60: 1 2");
    new FakeHostFiles(root).file("sys/class/net/bonding_masters", "");

    List<NetDevice> all = devices(root);

    assertThat(all).extracting(NetDevice::name).containsExactly("docker0", "eth0", "eth1", "lo");
    assertThat(all.get(1).irqs())
        .extracting(NicIrq::name)
        .containsExactly(
            "i40e-0000:81:00.0:misc",
            "i40e-eth0-TxRx-0",
            "i40e-eth0-TxRx-1",
            "i40e-eth0-TxRx-2",
            "i40e-eth0-TxRx-3");
    assertThat(all.get(2).irqs()).containsExactly(irq(17, "eth1", -1, "1"));
  }

  @Test
  void shouldReadAVirtioNicsVectorsAndNodeFromItsPciParent() {
    String pci = "sys/devices/pci0000:00/0000:00:03.0";
    new FakeHostFiles(tmp)
        .file(pci + "/numa_node", "1")
        .file(pci + "/local_cpulist", "2-3")
        .file(pci + "/msi_irqs/24", "msix")
        .file(pci + "/msi_irqs/25", "msix")
        .file(pci + "/msi_irqs/26", "msix")
        .file(pci + "/virtio0/net/eth0/queues/rx-0/rps_cpus", "0")
        .file(pci + "/virtio0/net/eth0/queues/tx-0/xps_cpus", "0")
        .file("proc/irq/25/effective_affinity_list", "3")
        .file(
            "proc/interrupts",
            "  CPU0 CPU1\n"
                + " 24: 0 0 PCI-MSIX-0000:00:03.0 0-edge virtio0-config\n"
                + " 25: 5 9 PCI-MSIX-0000:00:03.0 1-edge virtio0-input.0\n"
                + " 26: 0 0 PCI-MSIX-0000:00:03.0 2-edge virtio0-output.0\n");
    link(tmp, "virtio0/net/eth0/device", "../../../virtio0", pci);
    link(tmp, "sys/class/net/eth0", "../../devices/pci0000:00/0000:00:03.0/virtio0/net/eth0", "");

    List<NetDevice> all = new NetProbe(new SysFs(tmp), List.of(affinity(25, "3"))).probe();

    assertThat(all)
        .containsExactly(
            new NetDevice(
                "eth0",
                true,
                "virtio0",
                1,
                CpuSet.parse("2-3"),
                1,
                1,
                List.of(),
                List.of(),
                List.of(
                    irq(24, "virtio0-config", -1, ""),
                    irq(25, "virtio0-input.0", 0, "3"),
                    irq(26, "virtio0-output.0", 0, ""))));
  }

  private static IrqAffinity affinity(int irq, String cpus) {
    return new IrqAffinity(irq, CpuSet.parse(cpus), CpuSet.parse(cpus));
  }

  private static void link(Path root, String at, String target, String under) {
    try {
      Path p = root.resolve(under.isEmpty() ? at : under + "/" + at);
      Files.createDirectories(p.getParent());
      Files.createSymbolicLink(p, Paths.get(target));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void shouldTellTheQueueOnlyWhenTheVectorNameEndsInAQueueNumber() {
    assertThat(NicIrq.queueOf("i40e-eth0-TxRx-12")).isEqualTo(12);
    assertThat(NicIrq.queueOf("mlx5_comp3@pci:0000:3b:00.0")).isEqualTo(3);
    assertThat(NicIrq.queueOf("virtio0-input.7")).isEqualTo(7);
    assertThat(NicIrq.queueOf("eth0-rx-2")).isEqualTo(2);
    assertThat(NicIrq.queueOf("ens1f0_TxRx_5")).isEqualTo(5);
    for (String none :
        List.of(
            "eth1",
            "eth0",
            "i40e-0000:81:00.0:misc",
            "mlx5_async0@pci:0000:3b:00.0",
            "virtio0-config",
            "",
            "7",
            "q-1234567890")) {
      assertThat(NicIrq.queueOf(none)).as(none).isEqualTo(-1);
    }
  }

  @Test
  void shouldTakeTheNodesCpusAsNearAndTheLocalOnesWhereTheNodeIsUnknown() {
    CpuTopology e5 = HostCpus.probe(Fixtures.root(Fixtures.E5_NIC)).topology(); // two nodes
    CpuSet local = CpuSet.parse("6-7");

    assertThat(nic(1, local).nearCpus(e5)).isEqualTo(e5.numaNodes().get(1));
    assertThat(nic(-1, local).nearCpus(e5)).isEqualTo(local); // one-node hosts print -1
    assertThat(nic(7, local).nearCpus(e5)).isEqualTo(local); // a node the topology lacks
  }

  private static NetDevice nic(int node, CpuSet local) {
    return new NetDevice(
        "eth9", true, "0000:81:00.0", node, local, 1, 1, List.of(), List.of(), List.of());
  }
}
