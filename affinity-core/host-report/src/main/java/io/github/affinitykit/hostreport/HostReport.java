package io.github.affinitykit.hostreport;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.internal.SysFs;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Function;

/**
 * The whole host as the {@code doctor} reports it, beyond what pinning needs: the kernel command
 * line, every IRQ's affinity, the network interfaces, how this JVM and the kernel treat NUMA
 * memory, and the {@link HostWarning}s a person running pinned threads should act on. Read from the
 * {@link HostCpus#root() root} of a core snapshot, which it keeps as {@link #host()}.
 *
 * <p>A file the kernel lacks is a feature absent, as in core's probe; unparsable kernel command
 * line parameters are kept in {@link KernelCmdline#problems()}.
 *
 * <p>Thread safety: immutable; safe to share between threads.
 */
public final class HostReport {
  /** The most refusals kept, as core keeps: a tree of thousands of FIFOs says so in a hundred. */
  private static final int MAX_REFUSED = 100;

  private final HostCpus host;
  private final KernelCmdline cmdline;
  private final List<IrqAffinity> irqs;
  private final CpuSet irqDefault;
  private final List<NetDevice> netDevices;
  private final Optional<Boolean> jvmUsesNuma;
  private final Optional<Boolean> numaBalancing;
  private final List<String> refused;

  private HostReport(HostCpus host, SysFs fs, Function<String, Optional<String>> vmOption) {
    this.host = host;
    this.irqs = IrqAffinity.read(fs);
    this.cmdline = KernelCmdline.read(fs, host);
    this.irqDefault =
        fs.read("/proc/irq/default_smp_affinity").map(SysFs::hostMask).orElse(CpuSet.empty());
    this.netDevices = List.copyOf(new NetProbe(fs, irqs).probe());
    this.jvmUsesNuma =
        host.topology().numaNodes().size() > 1
            ? VmOptions.flag(vmOption.apply("UseNUMA"))
            : Optional.empty();
    OptionalInt balancing = fs.integer("/proc/sys/kernel/numa_balancing"); // 0 off, 1-3 on
    this.numaBalancing =
        balancing.isPresent() ? Optional.of(balancing.getAsInt() != 0) : Optional.empty();
    Set<String> all = new LinkedHashSet<>(host.refused());
    all.addAll(fs.refusals());
    this.refused = all.stream().limit(MAX_REFUSED).toList();
  }

  /**
   * Reads the rest of {@code host} from its root, now.
   *
   * @param host the core snapshot of the host to report; not null
   * @return the report; {@link #jvmUsesNuma()} is read only for this host ({@code /})
   * @throws io.github.affinitykit.core.cpu.CpuSetFormatException if an IRQ's affinity or the
   *     default one is not a cpu list or mask, as core's probe refuses its own files
   * @throws java.io.UncheckedIOException if a directory exists but cannot be listed
   */
  public static HostReport of(HostCpus host) {
    boolean here = host.root().toAbsolutePath().normalize().equals(Path.of("/"));
    // this JVM's flags say nothing about a tree from another host
    return read(host, here ? VmOptions::live : name -> Optional.empty());
  }

  /** {@link #of} with a stand-in for this JVM's {@code -XX} options (tests). */
  static HostReport read(HostCpus host, Function<String, Optional<String>> vmOption) {
    Objects.requireNonNull(host, "host");
    return new HostReport(host, new SysFs(host.root()), vmOption);
  }

  /**
   * Returns the core snapshot this report was read beside.
   *
   * @return the host's CPUs, pool and cgroup, never null
   */
  public HostCpus host() {
    return host;
  }

  /**
   * Returns the isolation parameters of the kernel command line.
   *
   * @return the parsed {@code /proc/cmdline}; every list empty if the file is missing
   */
  public KernelCmdline cmdline() {
    return cmdline;
  }

  /**
   * Returns every IRQ with its affinities, by IRQ number.
   *
   * @return one entry per readable {@code /proc/irq/N}, ascending by N; unmodifiable, maybe empty
   */
  public List<IrqAffinity> irqs() {
    return irqs;
  }

  /**
   * Returns {@code /proc/irq/default_smp_affinity}: where new IRQs go; empty if unknown.
   *
   * @return the default IRQ mask, or an empty set if the file is missing
   */
  public CpuSet irqDefault() {
    return irqDefault;
  }

  /**
   * Returns the network interfaces ({@code /sys/class/net}), physical and virtual, with their NUMA
   * nodes, queues and interrupts, named from the same {@code /proc/irq} reading as {@link #irqs()}.
   *
   * @return one entry per interface, by name; unmodifiable, empty without {@code /sys/class/net}
   */
  public List<NetDevice> netDevices() {
    return netDevices;
  }

  /**
   * Returns whether this JVM runs with {@code -XX:+UseNUMA}, as {@code
   * HotSpotDiagnosticMXBean.getVMOption("UseNUMA")} reports it. Read only on a host with more than
   * one NUMA node, where it matters, and only for this host ({@code /}): a host probed from another
   * root (a fixture tree, {@code doctor --root}) cannot show that host's JVM, and reads as unknown.
   *
   * @return the flag; empty on a one-node host, for another root, or where the VM does not report
   *     it (not HotSpot)
   */
  public Optional<Boolean> jvmUsesNuma() {
    return jvmUsesNuma;
  }

  /**
   * Returns whether the kernel's automatic NUMA balancing is on ({@code
   * /proc/sys/kernel/numa_balancing} not 0): it samples tasks' pages by unmapping them for a moment
   * (a fault on the next access, and on Debian 12's 6.1 {@code move_pages} reads such a page as not
   * present) and migrates pages and tasks towards each other, against explicit placement.
   *
   * @return the setting; empty where the kernel has no such file (built without it)
   */
  public Optional<Boolean> numaBalancing() {
    return numaBalancing;
  }

  /**
   * Returns the kernel files and directory entries refused without being read: core's ({@link
   * HostCpus#refused()}), then this report's own, each naming the file and the rule.
   *
   * @return the refusals in the order met, at most 100; empty for a host read whole
   */
  public List<String> refused() {
    return refused;
  }

  /**
   * Returns what a person running pinned threads on this host should know.
   *
   * @return a new list on each call, empty when nothing limits pinning on this host
   */
  public List<HostWarning> warnings() {
    return HostWarnings.of(this);
  }
}
