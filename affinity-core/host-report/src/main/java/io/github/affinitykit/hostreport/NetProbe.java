package io.github.affinitykit.hostreport;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.internal.SysFs;
import io.github.affinitykit.hostreport.proc.InterruptTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the {@link NetDevice}s under {@code /sys/class/net}, naming their interrupts from {@code
 * /proc/interrupts} and {@code /proc/irq}. Every file is optional: an absent, garbled or unreadable
 * one is an unknown value (-1, empty), never an exception.
 *
 * <p>Thread safety: not thread-safe (it caches the names it read); one probe per thread.
 */
final class NetProbe {
  private static final Pattern PCI_ADDRESS =
      Pattern.compile("[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]");

  /** The files of {@code /proc/irq/<n>/}: any other entry is a handler's directory. */
  private static final Set<String> IRQ_FILES =
      Set.of(
          "affinity_hint",
          "effective_affinity",
          "effective_affinity_list",
          "node",
          "smp_affinity",
          "smp_affinity_list",
          "spurious");

  private final SysFs fs;
  private final Map<Integer, IrqAffinity> affinities = new HashMap<>();
  private Map<Integer, String> names; // read at the first NIC interrupt: most probes see none

  /**
   * Prepares a probe.
   *
   * @param fs the tree to read
   * @param irqs the IRQ affinities already read from {@code /proc/irq} (by {@link HostReport})
   */
  NetProbe(SysFs fs, List<IrqAffinity> irqs) {
    this.fs = fs;
    irqs.forEach(irq -> affinities.put(irq.irq(), irq));
  }

  /** The interfaces of {@code host}, read now from its root with its IRQs (NIC placement). */
  static List<NetDevice> read(HostCpus host) {
    SysFs fs = new SysFs(host.root());
    return new NetProbe(fs, IrqAffinity.read(fs)).probe();
  }

  /** The handler names of {@code /proc/interrupts}, by IRQ, read once. */
  private Map<Integer, String> names() {
    if (names == null) {
      names = new HashMap<>();
      for (InterruptTable.Row row : InterruptTable.read(fs).rows()) {
        if (!row.name().isEmpty()) {
          names.put(row.irq(), row.name());
        }
      }
    }
    return names;
  }

  /** Every interface, by name; empty if {@code /sys/class/net} is absent (a container). */
  List<NetDevice> probe() {
    List<NetDevice> out = new ArrayList<>();
    for (String name : fs.list("/sys/class/net")) {
      String dir = "/sys/class/net/" + name;
      if (Files.isDirectory(fs.path(dir))) { // not bonding_masters
        out.add(device(name, dir));
      }
    }
    return out;
  }

  private NetDevice device(String name, String dir) {
    String dev = dir + "/device";
    Optional<String> target = linkTarget(dev);
    boolean physical = target.isPresent() || Files.isDirectory(fs.path(dev));
    boolean resolved = Files.isDirectory(fs.path(dev));
    String device = target.orElse("");
    // a virtio device has its vector and locality files on its PCI parent
    String base = PCI_ADDRESS.matcher(device).matches() ? dev : dev + "/..";
    int node = resolved ? node(dev, base) : -1;
    CpuSet local =
        resolved
            ? fs.cpus(dev + "/local_cpulist")
                .or(() -> fs.cpus(base + "/local_cpulist"))
                .orElse(CpuSet.empty())
            : CpuSet.empty();
    List<String> queues = fs.list(dir + "/queues");
    return new NetDevice(
        name,
        physical,
        device,
        node,
        local,
        count(queues, "rx-"),
        count(queues, "tx-"),
        masks(dir, queues, "rx-", "rps_cpus"),
        masks(dir, queues, "tx-", "xps_cpus"),
        resolved ? irqs(dev, base) : List.of());
  }

  private Optional<String> linkTarget(String dev) {
    try {
      Path name = Files.readSymbolicLink(fs.path(dev)).getFileName();
      return Optional.of(name == null ? "" : name.toString());
    } catch (IOException | UnsupportedOperationException | InvalidPathException e) {
      return Optional.empty(); // not a link: a virtual interface
    }
  }

  private int node(String dev, String base) {
    OptionalInt n = fs.integer(dev + "/numa_node");
    if (n.isEmpty()) {
      n = fs.integer(base + "/numa_node");
    }
    return n.isPresent() && n.getAsInt() >= 0 ? n.getAsInt() : -1;
  }

  private static int count(List<String> queues, String prefix) {
    return (int) queues.stream().filter(q -> SysFs.index(q, prefix) >= 0).count();
  }

  private List<QueueMask> masks(String dir, List<String> queues, String prefix, String file) {
    List<QueueMask> out = new ArrayList<>();
    for (String q : queues) {
      int index = SysFs.index(q, prefix);
      if (index >= 0) {
        fs.cpus(dir + "/queues/" + q + "/" + file)
            .filter(cpus -> !cpus.isEmpty())
            .ifPresent(cpus -> out.add(new QueueMask(index, cpus)));
      }
    }
    out.sort(Comparator.comparingInt(QueueMask::queue));
    return out;
  }

  private List<NicIrq> irqs(String dev, String base) {
    List<Integer> numbers = numbered(fs.list(dev + "/msi_irqs"));
    if (numbers.isEmpty() && !base.equals(dev)) {
      numbers = numbered(fs.list(base + "/msi_irqs"));
    }
    if (numbers.isEmpty()) { // a legacy line; 0 means none
      OptionalInt line = fs.integer(dev + "/irq");
      if (line.isEmpty()) {
        line = fs.integer(base + "/irq");
      }
      numbers = line.isPresent() && line.getAsInt() > 0 ? List.of(line.getAsInt()) : List.of();
    }
    List<NicIrq> out = new ArrayList<>();
    for (int irq : numbers) {
      String name = names().getOrDefault(irq, "");
      if (name.isEmpty()) {
        name = actionDirectory(irq);
      }
      IrqAffinity affinity = affinities.get(irq);
      out.add(
          new NicIrq(
              irq,
              name,
              NicIrq.queueOf(name),
              affinity == null ? CpuSet.empty() : affinity.effective()));
    }
    return out;
  }

  private static List<Integer> numbered(List<String> entries) {
    List<Integer> out = new ArrayList<>();
    for (String e : entries) {
      int irq = SysFs.index(e, "");
      if (irq >= 0) {
        out.add(irq);
      }
    }
    out.sort(Comparator.naturalOrder());
    return out;
  }

  /** The last handler directory of {@code /proc/irq/<irq>/}, {@code ""} if it has none. */
  private String actionDirectory(int irq) {
    String name = "";
    for (String e : fs.list("/proc/irq/" + irq)) {
      if (!IRQ_FILES.contains(e)) {
        name = e;
      }
    }
    return name;
  }
}
