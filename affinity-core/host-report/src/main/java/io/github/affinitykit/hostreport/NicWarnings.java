package io.github.affinitykit.hostreport;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import java.util.List;
import java.util.StringJoiner;

/**
 * Derives the network {@link HostWarning}s of a {@link HostReport}: NIC interrupts on pool CPUs,
 * NICs on a node without pool CPUs, and, on a multi-node host, a JVM without {@code -XX:+UseNUMA}
 * and the kernel's automatic NUMA balancing left on.
 *
 * <p>Thread safety: stateless.
 */
final class NicWarnings {
  private NicWarnings() {}

  static void add(HostReport host, CpuSet pool, List<HostWarning> out) {
    if (!pool.isEmpty()) {
      for (NetDevice nic : host.netDevices()) {
        irqsOnPool(nic, pool, out);
        remote(host.host(), nic, pool, out);
      }
    }
    int nodes = host.host().topology().numaNodes().size();
    if (nodes > 1 && host.jvmUsesNuma().filter(on -> !on).isPresent()) {
      out.add(
          new HostWarning(
              HostWarning.Kind.JVM_NOT_NUMA_AWARE,
              "this host has "
                  + nodes
                  + " NUMA nodes but the JVM runs without -XX:+UseNUMA: the heap is not"
                  + " split by node, so pinned threads read and allocate memory across the"
                  + " interconnect (start java with -XX:+UseNUMA)"));
    }
    if (nodes > 1 && !pool.isEmpty() && host.numaBalancing().orElse(false)) {
      out.add(
          new HostWarning(
              HostWarning.Kind.NUMA_BALANCING_ON,
              "the kernel's automatic NUMA balancing is on (kernel.numa_balancing): it unmaps"
                  + " pinned threads' pages to sample them (a fault on the next access) and moves"
                  + " pages and threads on its own, against the placement asked for (sysctl -w"
                  + " kernel.numa_balancing=0, as tuned's latency profiles do)"));
    }
  }

  private static void irqsOnPool(NetDevice nic, CpuSet pool, List<HostWarning> out) {
    StringJoiner hits = new StringJoiner(", ");
    CpuSet cpus = CpuSet.empty();
    for (NicIrq irq : nic.irqs()) {
      if (irq.effective().intersects(pool)) {
        CpuSet on = irq.effective().intersect(pool);
        cpus = cpus.union(on);
        hits.add(irq.irq() + (irq.name().isEmpty() ? "" : " " + irq.name()) + " -> " + on);
      }
    }
    if (!cpus.isEmpty()) {
      out.add(
          new HostWarning(
              HostWarning.Kind.NIC_IRQ_ON_POOL,
              "NIC "
                  + nic.name()
                  + " interrupts pool CPUs "
                  + cpus
                  + " (IRQ "
                  + hits
                  + "): threads pinned there stop for its packets (move them: write"
                  + " housekeeping CPUs to /proc/irq/<irq>/smp_affinity_list, keep irqbalance"
                  + " off the pool, or boot with isolcpus=managed_irq)"));
    }
  }

  private static void remote(HostCpus host, NetDevice nic, CpuSet pool, List<HostWarning> out) {
    if (nic.node() < 0 || host.topology().numaNodes().size() < 2) {
      return;
    }
    CpuSet near = nic.nearCpus(host.topology());
    if (!near.isEmpty() && !near.intersects(pool)) {
      out.add(
          new HostWarning(
              HostWarning.Kind.NIC_REMOTE_NODE,
              "NIC "
                  + nic.name()
                  + " is on NUMA node "
                  + nic.node()
                  + " (CPUs "
                  + near
                  + "), which holds none of the pool's CPUs "
                  + pool
                  + ": threads pinned there serve its traffic across the interconnect (put"
                  + " pool CPUs on node "
                  + nic.node()
                  + ", or use a NIC on the pool's node)"));
    }
  }
}
