package io.github.affinitykit.hostreport;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuTopology;
import java.util.List;
import java.util.Objects;

/**
 * One network interface ({@code /sys/class/net/<name>}) as the kernel describes it: the device
 * behind it, its NUMA node and local CPUs, its queues with their RPS/XPS steering, and its
 * interrupts with the CPUs they are delivered to. A virtual interface ({@code lo}, {@code veth*}, a
 * bridge) has no {@code device} link: no device, node -1, no local CPUs, no interrupts.
 *
 * <p>Thread safety: immutable.
 *
 * @param name the interface's name ({@code eth0})
 * @param physical whether a {@code device} link backs it (a NIC), even one whose target is gone
 * @param device the name of the device directory the link points to: the PCI address ({@code
 *     0000:81:00.0}) for a PCI NIC, else the bus device ({@code virtio0}); {@code ""} if virtual
 * @param node the device's NUMA node ({@code device/numa_node}), -1 if unknown: virtual, absent,
 *     garbled, or the -1 the kernel prints on a host with one node
 * @param localCpus the CPUs local to the device ({@code device/local_cpulist}); empty if unknown
 * @param rxQueues the number of receive queues ({@code queues/rx-N})
 * @param txQueues the number of transmit queues ({@code queues/tx-N})
 * @param rps the receive queues with an RPS mask set, by queue
 * @param xps the transmit queues with an XPS mask set, by queue
 * @param irqs the device's interrupts, by number
 */
public record NetDevice(
    String name,
    boolean physical,
    String device,
    int node,
    CpuSet localCpus,
    int rxQueues,
    int txQueues,
    List<QueueMask> rps,
    List<QueueMask> xps,
    List<NicIrq> irqs) {
  /**
   * Validates and copies the lists.
   *
   * @param name the interface's name; not null, not empty
   * @param physical whether a {@code device} link backs it
   * @param device the device's name, {@code ""} if none; not null
   * @param node the NUMA node, -1 if unknown; not below -1
   * @param localCpus the CPUs local to the device, empty if unknown; not null
   * @param rxQueues the number of receive queues, 0 or more
   * @param txQueues the number of transmit queues, 0 or more
   * @param rps the RPS masks set; not null
   * @param xps the XPS masks set; not null
   * @param irqs the interrupts; not null
   */
  public NetDevice {
    if (name.isEmpty()) {
      throw new IllegalArgumentException("name: \"\" (expected: an interface name)");
    }
    Objects.requireNonNull(device, "device");
    if (node < -1) {
      throw new IllegalArgumentException("node: " + node + " (expected: >= -1)");
    }
    Objects.requireNonNull(localCpus, "localCpus");
    if (rxQueues < 0 || txQueues < 0) {
      throw new IllegalArgumentException(
          "queues: rx " + rxQueues + " tx " + txQueues + " (expected: >= 0)");
    }
    rps = List.copyOf(rps);
    xps = List.copyOf(xps);
    irqs = List.copyOf(irqs);
  }

  /**
   * Returns the CPUs any of its interrupts is delivered to.
   *
   * @return the union of the {@link NicIrq#effective()} sets; empty if none is known
   */
  public CpuSet irqCpus() {
    CpuSet out = CpuSet.empty();
    for (NicIrq irq : irqs) {
      out = out.union(irq.effective());
    }
    return out;
  }

  /**
   * Returns the CPUs near it: those of its NUMA node in {@code topology}; its local CPUs where the
   * node is unknown (-1 on a one-node host) or not in the topology. The one rule of the doctor's
   * warnings and of placement next to the NIC.
   *
   * @param topology the host's topology
   * @return the CPUs near the device; empty if neither is known
   */
  public CpuSet nearCpus(CpuTopology topology) {
    return node < 0 ? localCpus : topology.numaNodes().getOrDefault(node, localCpus);
  }
}
