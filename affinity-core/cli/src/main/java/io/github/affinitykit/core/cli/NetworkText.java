package io.github.affinitykit.core.cli;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.hostreport.HostReport;
import io.github.affinitykit.hostreport.NetDevice;
import io.github.affinitykit.hostreport.NicIrq;
import io.github.affinitykit.hostreport.QueueMask;
import java.util.List;
import java.util.StringJoiner;

/**
 * The doctor's "network" section for a person: each interface with its device, NUMA node, local
 * CPUs and queues, the RPS/XPS masks set, and each interrupt with the CPUs it is delivered to and
 * the queue it serves; then whether this JVM runs with {@code -XX:+UseNUMA} and whether the
 * kernel's automatic NUMA balancing is on.
 *
 * <p>Thread safety: stateless.
 */
final class NetworkText {
  /** Interrupts listed per interface; a 128-queue NIC gets a count for the rest. */
  private static final int MAX_IRQS = 16;

  private NetworkText() {}

  static void render(StringBuilder out, HostReport host) {
    List<NetDevice> devices = host.netDevices();
    long nics = devices.stream().filter(NetDevice::physical).count();
    out.append("\nNetwork    ");
    out.append(devices.isEmpty() ? "(no /sys/class/net visible)" : devices.size() + " interfaces");
    out.append(devices.isEmpty() ? "" : ", " + nics + " NIC" + (nics == 1 ? "" : "s"));
    out.append("; JVM -XX:+UseNUMA ")
        .append(useNuma(host))
        .append("; kernel NUMA balancing ")
        .append(host.numaBalancing().map(on -> on ? "on" : "off").orElse("unknown"))
        .append('\n');
    for (NetDevice d : devices) {
      device(out, d);
    }
  }

  private static String useNuma(HostReport host) {
    if (host.jvmUsesNuma().isPresent()) {
      return host.jvmUsesNuma().get() ? "on" : "off";
    }
    return host.host().topology().numaNodes().size() > 1
        ? "unknown (another host's tree, or not reported)"
        : "not read (one node)";
  }

  private static void device(StringBuilder out, NetDevice d) {
    StringJoiner j = new StringJoiner("  ");
    if (d.physical()) {
      j.add(d.device().isEmpty() ? "device ?" : d.device());
      j.add("node " + (d.node() < 0 ? "?" : String.valueOf(d.node())));
      j.add("local " + (d.localCpus().isEmpty() ? "?" : d.localCpus().toString()));
    } else {
      j.add("virtual");
    }
    j.add("queues rx " + d.rxQueues() + " tx " + d.txQueues());
    out.append(String.format("  %-12s %s%n", d.name(), j));
    masks(out, "rps", "rx-", d.rps());
    masks(out, "xps", "tx-", d.xps());
    List<NicIrq> irqs = d.irqs();
    for (NicIrq irq : irqs.subList(0, Math.min(irqs.size(), MAX_IRQS))) {
      CpuSet cpus = irq.effective();
      String line =
          String.format(
              "    irq %-8d %-16s %s%s",
              irq.irq(),
              cpus.isEmpty() ? "?" : cpus.toString(),
              irq.name().isEmpty() ? "(unnamed)" : irq.name(),
              irq.queue() < 0 ? "" : "  queue " + irq.queue());
      out.append(line.stripTrailing()).append('\n');
    }
    if (irqs.size() > MAX_IRQS) {
      out.append("    ... ").append(irqs.size() - MAX_IRQS).append(" more IRQs (--json)\n");
    }
  }

  private static void masks(StringBuilder out, String label, String prefix, List<QueueMask> ms) {
    if (ms.isEmpty()) {
      return;
    }
    StringJoiner j = new StringJoiner("  ");
    ms.forEach(m -> j.add(prefix + m.queue() + " " + m.cpus()));
    out.append(String.format("    %-12s %s%n", label, j));
  }
}
