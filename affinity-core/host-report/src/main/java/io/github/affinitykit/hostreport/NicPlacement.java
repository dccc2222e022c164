package io.github.affinitykit.hostreport;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import java.util.List;
import java.util.Objects;

/**
 * Where threads that serve a NIC should run: the CPUs of a pool on the NIC's NUMA node, so the
 * packets the NIC writes into memory on its node and the threads that read them meet there; with or
 * without the CPUs its interrupts are delivered to ({@link IrqSharing}). Give a group the chosen
 * CPUs as its pool ({@code kit.group("worker").pool(p.cpus())}); {@link #reason()} says why they.
 *
 * <p>Where the NIC's node is unknown (the -1 the kernel prints on a host with one node) its local
 * CPUs ({@code local_cpulist}: there, every CPU) stand for the node, so only the interrupt rule
 * narrows the pool. Where the NIC gives nothing to go by (a virtual interface, no node and no local
 * CPUs, a pool with no CPU on its node) the pool is kept whole and the reason says so: placing near
 * a NIC never fails for want of one.
 *
 * <p>Thread safety: immutable.
 *
 * @param nic the interface's name
 * @param node the NIC's NUMA node, -1 if unknown
 * @param asked the interrupt policy asked for
 * @param applied the policy in force: {@code SHARE} where avoiding would leave no CPU
 * @param cpus the CPUs chosen, never empty: the pool itself where the NIC gives nothing to go by
 * @param reason why these CPUs, in a sentence
 */
public record NicPlacement(
    String nic, int node, IrqSharing asked, IrqSharing applied, CpuSet cpus, String reason) {
  /**
   * Validates.
   *
   * @param nic the interface's name; not null
   * @param node the NIC's NUMA node, -1 if unknown
   * @param asked the interrupt policy asked for; not null
   * @param applied the policy in force; not null
   * @param cpus the CPUs chosen; not null, not empty
   * @param reason why these CPUs; not null
   */
  public NicPlacement {
    Objects.requireNonNull(nic, "nic");
    Objects.requireNonNull(asked, "asked");
    Objects.requireNonNull(applied, "applied");
    Objects.requireNonNull(reason, "reason");
    if (Objects.requireNonNull(cpus, "cpus").isEmpty()) {
      throw new IllegalArgumentException("cpus: empty (expected: at least one CPU)");
    }
  }

  /**
   * Chooses the CPUs of {@code pool} next to NIC {@code nic}.
   *
   * @param host the host model the NIC and the nodes are read from; not null
   * @param pool the CPUs the threads may use; not null, not empty
   * @param nic an interface of {@code host} ({@link HostReport#netDevices()}, read now from the
   *     host's {@link HostCpus#root() root}); not null
   * @param sharing whether the threads may share CPUs with the NIC's interrupts; not null
   * @return the CPUs and why
   * @throws IllegalArgumentException if {@code host} has no interface {@code nic}, or {@code pool}
   *     is empty
   */
  public static NicPlacement near(HostCpus host, CpuSet pool, String nic, IrqSharing sharing) {
    Objects.requireNonNull(sharing, "sharing");
    if (Objects.requireNonNull(pool, "pool").isEmpty()) {
      throw new IllegalArgumentException("pool: empty (expected: the CPUs to choose from)");
    }
    NetDevice d = device(NetProbe.read(host), nic);
    if (!d.physical()) {
      return new NicPlacement(
          nic, -1, sharing, sharing, pool, nic + " is virtual (no device, no node): pool " + pool);
    }
    CpuSet local = d.nearCpus(host.topology());
    String where = d.node() >= 0 ? "node " + d.node() : "its local CPUs " + d.localCpus();
    CpuSet near = pool.intersect(local);
    if (local.isEmpty() || near.isEmpty()) {
      String why = local.isEmpty() ? "its node is unknown" : "no CPU of the pool is on " + where;
      return new NicPlacement(
          nic, d.node(), sharing, sharing, pool, nic + ": " + why + "; pool " + pool);
    }
    CpuSet irqs = d.irqCpus();
    CpuSet away = near.minus(irqs);
    String base =
        (d.node() >= 0 ? nic + " is on node " + d.node() : nic + "'s node is unknown, " + where)
            + ": the pool's CPUs there are "
            + near;
    if (sharing == IrqSharing.SHARE || near.equals(away)) {
      String also =
          irqs.intersect(near).isEmpty() ? "" : " (its IRQs on " + irqs.intersect(near) + ")";
      return new NicPlacement(nic, d.node(), sharing, sharing, near, base + also);
    }
    if (away.isEmpty()) {
      return new NicPlacement(
          nic,
          d.node(),
          sharing,
          IrqSharing.SHARE,
          near,
          base + ", and every one takes its IRQs: shared, none to avoid them on");
    }
    return new NicPlacement(
        nic,
        d.node(),
        sharing,
        sharing,
        away,
        base + ", less " + near.intersect(irqs) + " (its IRQs)");
  }

  private static NetDevice device(List<NetDevice> devices, String nic) {
    Objects.requireNonNull(nic, "nic");
    return devices.stream()
        .filter(d -> d.name().equals(nic))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "nic: "
                        + nic
                        + " (expected: a network interface of this host: "
                        + String.join(", ", devices.stream().map(NetDevice::name).toList())
                        + ")"));
  }
}
