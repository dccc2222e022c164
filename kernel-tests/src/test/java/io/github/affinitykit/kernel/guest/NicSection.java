package io.github.affinitykit.kernel.guest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The NIC, memory and loop placement facts of shape N: what the kernel says about {@code eth0}
 * (read here straight from sysfs and procfs, the reference the host model is held to).
 *
 * <p>Thread safety: sections; run on the guest program's main thread.
 */
final class NicSection {
  private NicSection() {}

  /** Reports the kernel's own view of {@code eth0}: device path, PCI node, MSI vectors, IRQs. */
  static void run(ObjectNode data, PrintStream log) throws Exception {
    ObjectNode raw = data.putObject("kernel");
    Path net = Path.of("/sys/class/net/eth0");
    raw.put("link", Files.readSymbolicLink(net).toString());
    Path pci = net.resolve("device").toRealPath().getParent(); // virtio0's parent: the PCI device
    raw.put("pci", pci.getFileName().toString())
        .put("numaNode", read(pci.resolve("numa_node")))
        .put("localCpus", read(pci.resolve("local_cpulist")));
    ArrayNode irqs = raw.putArray("irqs");
    try (Stream<Path> s = Files.list(pci.resolve("msi_irqs"))) {
      for (Path p : s.sorted().toList()) {
        String irq = p.getFileName().toString();
        Path dir = Path.of("/proc/irq", irq);
        ObjectNode i = irqs.addObject().put("irq", Integer.parseInt(irq));
        i.put("effective", read(dir.resolve("effective_affinity_list")));
        try (Stream<Path> actions = Files.list(dir)) {
          actions
              .filter(Files::isDirectory)
              .findFirst()
              .ifPresent(a -> i.put("name", a.getFileName().toString()));
        }
      }
    }
    log.println("nic: " + data);
  }

  private static String read(Path p) {
    try {
      return Files.readString(p).trim();
    } catch (IOException e) {
      return "unreadable: " + e;
    }
  }
}
