package io.github.affinitykit.core.host;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuSetFormatException;
import io.github.affinitykit.core.cpu.CpuTopology;
import io.github.affinitykit.core.internal.SysFs;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An immutable snapshot of the host's CPUs as this process sees them: topology, the calling
 * thread's allowed mask, the cgroup cpuset in force, the kernel's isolation state (isolcpus,
 * nohz_full, cgroup v2 isolated partitions), IRQ routing, and the facts derived from them.
 *
 * <p>Take it <em>before</em> pinning anything: the allowed mask is the calling thread's, and a
 * pinned thread sees only its own CPU (as {@link Runtime#availableProcessors()} does).
 *
 * <p>Thread safety: immutable; safe to share between threads.
 */
public final class HostCpus {
  private final CpuTopology topology;
  private final CpuSet allowed;
  private final boolean allowedKnown;
  private final CgroupCpuset cgroup;
  private final CpuSet isolated;
  private final CpuSet nohzFull;
  private final KernelCmdline cmdline;
  private final List<IrqAffinity> irqs;
  private final CpuSet irqDefault;
  private final List<NetDevice> netDevices;
  private final Optional<Boolean> jvmUsesNuma;
  private final Optional<Boolean> numaBalancing;
  private final Optional<CpuPool> pool;
  private final Optional<IllegalArgumentException> poolProblem;
  private final List<String> refused;
  // derived at probe time, so that asking a snapshot runs nothing but this class
  private final CpuSet usable;
  private final CpuSet isolatedCpus;
  private final boolean allowedIsIsolationDefault;
  private final CpuSet reachable;
  private final CpuSet exclusive;

  /** The kernel's own isolation: {@code isolated}, {@code nohz_full} and the command line. */
  record KernelIsolation(CpuSet isolated, CpuSet nohzFull, KernelCmdline cmdline) {}

  /** The IRQs' affinities, the default one for new IRQs, and the NICs they serve, as probed. */
  record IrqRouting(List<IrqAffinity> irqs, CpuSet defaultMask, List<NetDevice> netDevices) {}

  /**
   * What this JVM was started with (the pool override, {@code -XX:+UseNUMA} where read) and whether
   * the kernel balances NUMA memory on its own ({@code kernel.numa_balancing}, where it has it).
   */
  record JvmSettings(
      Optional<PoolPolicy.Override> override,
      Optional<Boolean> useNuma,
      Optional<Boolean> numaBalancing) {}

  HostCpus(
      CpuTopology topology,
      Optional<CpuSet> allowed,
      CgroupCpuset cgroup,
      KernelIsolation kernel,
      IrqRouting irqRouting,
      JvmSettings jvm,
      List<String> refused) {
    List<IrqAffinity> irqs = irqRouting.irqs();
    CpuSet irqDefault = irqRouting.defaultMask();
    this.topology = Objects.requireNonNull(topology, "topology");
    this.cgroup = Objects.requireNonNull(cgroup, "cgroup");
    this.allowedKnown = allowed.isPresent();
    this.allowed = allowed.orElseGet(() -> usable(topology, cgroup));
    this.isolated = Objects.requireNonNull(kernel.isolated(), "isolated");
    this.nohzFull = Objects.requireNonNull(kernel.nohzFull(), "nohzFull");
    this.cmdline = Objects.requireNonNull(kernel.cmdline(), "cmdline");
    this.irqs = List.copyOf(irqs);
    this.irqDefault = Objects.requireNonNull(irqDefault, "irqDefault");
    this.netDevices = List.copyOf(irqRouting.netDevices());
    this.jvmUsesNuma = jvm.useNuma();
    this.numaBalancing = jvm.numaBalancing();
    this.refused = List.copyOf(refused);
    this.usable = usable(topology, cgroup);
    CpuSet own = cgroup.inIsolatedPartition() ? cgroup.effective() : CpuSet.empty();
    this.isolatedCpus = isolated.union(cgroup.isolatedPartitions()).union(own).union(nohzFull);
    this.allowedIsIsolationDefault =
        !isolatedCpus.isEmpty()
            && !this.allowed.intersects(isolatedCpus)
            && this.allowed.union(isolatedCpus).containsAll(usable)
            && !this.allowed.intersect(usable).isEmpty();
    this.reachable = allowedIsIsolationDefault ? usable : usable.intersect(this.allowed);
    this.exclusive = isolatedCpus.intersect(reachable);
    Optional<CpuPool> resolved = Optional.empty();
    Optional<IllegalArgumentException> problem = Optional.empty();
    try {
      resolved = Optional.of(PoolPolicy.resolve(this, jvm.override()));
    } catch (IllegalArgumentException e) {
      problem = Optional.of(e);
    }
    this.pool = resolved;
    this.poolProblem = problem;
  }

  /**
   * Probes the running host ({@code /sys}, {@code /proc}).
   *
   * @return a snapshot of this host taken now, with a resolved {@link #pool()}
   * @throws IllegalStateException if no online CPU is listed (see {@link #probe(Path)})
   * @throws CpuSetFormatException if a file that bounds or isolates the CPUs does not parse
   */
  public static HostCpus probe() {
    return probe(Path.of("/"));
  }

  /**
   * Probes the host whose {@code sys/} and {@code proc/} trees are under {@code root}. A file the
   * kernel lacks is a feature absent; a garbled topology, cache, NUMA or core-kind file counts as
   * absent too, and unparsable kernel command line parameters are kept in {@link
   * KernelCmdline#problems()}. {@code HostFilesFuzzTest} checks that nothing else escapes.
   *
   * @param root the directory holding {@code sys/} and {@code proc/}, {@code /} for this host
   * @return a snapshot taken now, with a resolved {@link #pool()}
   * @throws IllegalStateException if neither sysfs nor {@code /proc/cpuinfo} lists an online CPU
   * @throws CpuSetFormatException if a file that bounds or isolates the CPUs this process may use
   *     is not a cpu list or mask (the allowed mask, the cgroup cpuset, {@code isolated}, {@code
   *     nohz_full}, IRQ affinities): guessing there could hand out CPUs it may not use
   * @throws java.io.UncheckedIOException if a directory exists but cannot be listed
   * @throws IllegalArgumentException if the pool override ({@code -Daffinitykit.pool} or {@code
   *     AFFINITYKIT_POOL}, read once, here) is not a cpu list of CPUs this process may use
   */
  public static HostCpus probe(Path root) {
    HostCpus host = diagnose(root);
    host.poolProblem.ifPresent(
        e -> {
          throw e;
        });
    return host;
  }

  /**
   * Probes as {@link #probe(Path)} does, but keeps a bad pool override ({@code -Daffinitykit.pool},
   * {@code AFFINITYKIT_POOL}) for {@link #pool()} to report instead of failing: for a diagnosis
   * that must still describe the host (the {@code doctor}).
   *
   * @param root the directory holding {@code sys/} and {@code proc/}, {@code /} for this host
   * @return a snapshot taken now; its {@link #pool()} throws if the override was bad
   */
  public static HostCpus diagnose(Path root) {
    boolean here = root.toAbsolutePath().normalize().equals(Path.of("/"));
    return new HostProbe(new SysFs(root), here ? VmOptions::live : name -> Optional.empty())
        .probe(); // this JVM's flags say nothing about a tree from another host
  }

  /**
   * Returns the CPU topology.
   *
   * @return the topology read at probe time, never null
   */
  public CpuTopology topology() {
    return topology;
  }

  /**
   * Returns the calling thread's allowed mask at probe time ({@code Cpus_allowed_list}); {@link
   * #usable()} when the mask could not be read (see {@link #allowedKnown()}).
   *
   * @return the calling thread's CPUs at probe time, or {@link #usable()} in its stead
   */
  public CpuSet allowed() {
    return allowed;
  }

  /**
   * Returns whether {@link #allowed()} was read from the kernel rather than assumed.
   *
   * @return true if {@code Cpus_allowed_list} was read; false if {@link #usable()} stands in for it
   */
  public boolean allowedKnown() {
    return allowedKnown;
  }

  /**
   * Returns the cgroup cpuset in force for this process.
   *
   * @return the cpuset as probed; version 0 if no cpuset controller was found
   */
  public CgroupCpuset cgroup() {
    return cgroup;
  }

  /**
   * Returns {@code /sys/devices/system/cpu/isolated}: CPUs out of the scheduler domains.
   *
   * @return the isolcpus {@code domain} CPUs; empty if the file is absent or empty
   */
  public CpuSet isolated() {
    return isolated;
  }

  /**
   * Returns {@code /sys/devices/system/cpu/nohz_full}; empty if absent or empty.
   *
   * @return the tickless ({@code nohz_full}) CPUs, possibly empty
   */
  public CpuSet nohzFull() {
    return nohzFull;
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
   * nodes, queues and interrupts. Read with the rest of the snapshot because the warnings weigh
   * them against the pool, and with the same {@code /proc/irq} reading as {@link #irqs()}.
   *
   * @return one entry per interface, by name; unmodifiable, empty without {@code /sys/class/net}
   */
  public List<NetDevice> netDevices() {
    return netDevices;
  }

  /**
   * Returns whether this JVM runs with {@code -XX:+UseNUMA}, as {@code
   * HotSpotDiagnosticMXBean.getVMOption("UseNUMA")} reports it. Read only on a host with more than
   * one NUMA node, where it matters, and only for this host ({@code /}): a model probed from
   * another root (a fixture tree, {@code doctor --root}) cannot see that host's JVM, and reads it
   * as unknown.
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
   * Returns the online CPUs this process's cgroup lets it use at all.
   *
   * @return the online CPUs within the cgroup's effective CPUs; all online CPUs without a cpuset
   */
  public CpuSet usable() {
    return usable;
  }

  private static CpuSet usable(CpuTopology topology, CgroupCpuset cgroup) {
    CpuSet online = topology.online();
    return cgroup.present() ? online.intersect(cgroup.effective()) : online;
  }

  /**
   * Returns whether the allowed mask is the boot default under isolcpus: every usable CPU except
   * the isolated ones. Then the isolated CPUs are not a restriction of this process but the
   * kernel's way of keeping ordinary tasks off them, and {@code sched_setaffinity} may still use
   * them.
   *
   * @return true only if some CPU is isolated, the allowed mask holds none of them but some usable
   *     CPU, and together with them covers every usable CPU
   */
  public boolean allowedIsIsolationDefault() {
    return allowedIsIsolationDefault;
  }

  /**
   * Returns the CPUs a thread of this process may be pinned to: {@link #usable()}, narrowed to the
   * allowed mask when something (taskset, numactl, a parent) restricted it, unless that mask is
   * just the isolcpus boot default.
   *
   * @return a subset of {@link #usable()}, possibly empty
   */
  public CpuSet reachable() {
    return reachable;
  }

  /**
   * Returns the CPUs isolated from ordinary scheduling by any mechanism: isolcpus {@code domain}
   * ({@link #isolated()}), cgroup v2 isolated partitions (all of them from the root's {@code
   * cpuset.cpus.isolated} on 6.8+; before that, at least this process's own partition when it is
   * {@code isolated}), and {@code nohz_full}.
   *
   * @return the union of those sets, possibly empty; it may hold CPUs this process cannot reach
   */
  public CpuSet isolatedCpus() {
    return isolatedCpus;
  }

  /**
   * Returns the isolated CPUs this process can reach: the exclusive candidates.
   *
   * @return {@link #isolatedCpus()} within {@link #reachable()}, possibly empty
   */
  public CpuSet exclusive() {
    return exclusive;
  }

  /**
   * Returns the isolated CPUs whose physical core also runs a CPU that is not isolated: their
   * core-mate still runs general work, so they are not exclusive cores.
   *
   * @return those of {@link #isolatedCpus()} with a known topology; empty if no such core
   */
  public CpuSet isolatedWithSharedCore() {
    CpuSet iso = isolatedCpus();
    CpuSet[] out = {CpuSet.empty()};
    iso.forEach(
        cpu -> {
          if (topology.known().contains(cpu) && !iso.containsAll(topology.cpu(cpu).core())) {
            out[0] = out[0].union(CpuSet.of(cpu));
          }
        });
    return out[0];
  }

  /**
   * Returns the default pool (isolated CPUs first), or the one named by the overrides, as read when
   * the host was probed.
   *
   * @return the pool resolved at probe time, never null (possibly one with no CPUs)
   * @throws IllegalArgumentException only for a host from {@link #diagnose(Path)} whose override
   *     was bad, with the message {@link #probe(Path)} would have thrown
   */
  public CpuPool pool() {
    return pool.orElseThrow(() -> poolProblem.orElseThrow());
  }

  /**
   * Returns the pool {@code cpus}, checked against {@link #reachable()}.
   *
   * @param cpus the CPUs to hand out; must be a non-empty subset of {@link #reachable()}
   * @return a pool of source {@code OVERRIDE}; the rest of {@link #reachable()} is housekeeping
   */
  public CpuPool pool(CpuSet cpus) {
    return PoolPolicy.explicit(this, Objects.requireNonNull(cpus, "cpus"), "builder");
  }

  /**
   * Returns the kernel files and directory entries the probe refused to read, each with what it was
   * and the rule: a FIFO, device or socket (never opened), a link out of the tree, a file larger
   * than its kind of kernel file can be, a {@code cpuN} or {@code nodeN} past the kernel's limits.
   * Each reads as absent; {@link #warnings()} has one {@link HostWarning.Kind#HOST_FILE_REFUSED}
   * per entry.
   *
   * @return the refusals in the order met, at most 100; empty for a host read whole
   */
  List<String> refused() {
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
