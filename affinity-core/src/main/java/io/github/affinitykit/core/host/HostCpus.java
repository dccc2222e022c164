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
 * thread's allowed mask, the cgroup cpuset, the kernel's isolation state, and what pinning derives
 * from them. Take it <em>before</em> pinning anything: the allowed mask is the calling thread's.
 *
 * <p>Thread safety: immutable; safe to share between threads.
 */
public final class HostCpus {
  private final Path root;
  private final CpuTopology topology;
  private final CpuSet allowed;
  private final boolean allowedKnown;
  private final CgroupCpuset cgroup;
  private final CpuSet isolated;
  private final CpuSet nohzFull;
  private final Optional<CpuPool> pool;
  private final Optional<IllegalArgumentException> poolProblem;
  private final List<String> refused;
  // derived at probe time, so that asking a snapshot runs nothing but this class
  private final CpuSet usable;
  private final CpuSet isolatedCpus;
  private final boolean allowedIsIsolationDefault;
  private final CpuSet reachable;
  private final CpuSet exclusive;

  /** The kernel's own isolation: {@code isolated} and {@code nohz_full}. */
  record KernelIsolation(CpuSet isolated, CpuSet nohzFull) {}

  HostCpus(
      Path root,
      CpuTopology topology,
      Optional<CpuSet> allowed,
      CgroupCpuset cgroup,
      KernelIsolation kernel,
      Optional<PoolPolicy.Override> override,
      List<String> refused) {
    this.root = Objects.requireNonNull(root, "root");
    this.topology = Objects.requireNonNull(topology, "topology");
    this.cgroup = Objects.requireNonNull(cgroup, "cgroup");
    this.allowedKnown = allowed.isPresent();
    this.allowed = allowed.orElseGet(() -> usable(topology, cgroup));
    this.isolated = Objects.requireNonNull(kernel.isolated(), "isolated");
    this.nohzFull = Objects.requireNonNull(kernel.nohzFull(), "nohzFull");
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
      resolved = Optional.of(PoolPolicy.resolve(this, override));
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
   * Probes the host whose {@code sys/} and {@code proc/} trees are under {@code root}. A missing or
   * garbled topology, cache, NUMA or core-kind file is a feature absent.
   *
   * @param root the directory holding {@code sys/} and {@code proc/}, {@code /} for this host
   * @return a snapshot taken now, with a resolved {@link #pool()}
   * @throws IllegalStateException if neither sysfs nor {@code /proc/cpuinfo} lists an online CPU
   * @throws CpuSetFormatException if a file that bounds or isolates the usable CPUs does not parse:
   *     guessing there could hand out CPUs it may not use
   * @throws java.io.UncheckedIOException if a directory exists but cannot be listed
   * @throws IllegalArgumentException if the pool override ({@code -Daffinitykit.pool}, {@code
   *     AFFINITYKIT_POOL}) is not a list of CPUs this process may use
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
   * Probes as {@link #probe(Path)} does, but keeps a bad pool override for {@link #pool()} to
   * report instead of failing (the {@code doctor}).
   *
   * @param root the directory holding {@code sys/} and {@code proc/}, {@code /} for this host
   * @return a snapshot taken now; its {@link #pool()} throws if the override was bad
   */
  public static HostCpus diagnose(Path root) {
    return new HostProbe(new SysFs(root)).probe();
  }

  /** {@return the directory this snapshot was read from: {@code /} for {@link #probe()}} */
  public Path root() {
    return root;
  }

  /** {@return the topology read at probe time, never null} */
  public CpuTopology topology() {
    return topology;
  }

  /** {@return the calling thread's allowed mask at probe time, else {@link #usable()}} */
  public CpuSet allowed() {
    return allowed;
  }

  /** {@return true if {@code Cpus_allowed_list} was read, false if {@link #usable()} stands in} */
  public boolean allowedKnown() {
    return allowedKnown;
  }

  /** {@return the cpuset as probed; version 0 if no cpuset controller was found} */
  public CgroupCpuset cgroup() {
    return cgroup;
  }

  /** {@return {@code /sys/devices/system/cpu/isolated}: CPUs out of the scheduler domains} */
  public CpuSet isolated() {
    return isolated;
  }

  /** {@return {@code /sys/devices/system/cpu/nohz_full}; empty if absent or empty} */
  public CpuSet nohzFull() {
    return nohzFull;
  }

  /** {@return the online CPUs within the cgroup's effective CPUs (all without a cpuset)} */
  public CpuSet usable() {
    return usable;
  }

  private static CpuSet usable(CpuTopology topology, CgroupCpuset cgroup) {
    CpuSet online = topology.online();
    return cgroup.present() ? online.intersect(cgroup.effective()) : online;
  }

  /**
   * {@return whether the allowed mask is the boot default under isolcpus} It holds no isolated CPU
   * but some usable one, and with the isolated ones covers every usable CPU.
   */
  public boolean allowedIsIsolationDefault() {
    return allowedIsIsolationDefault;
  }

  /**
   * {@return the CPUs a thread of this process may be pinned to: {@link #usable()}, narrowed to the
   * allowed mask unless that mask is the isolcpus boot default; possibly empty}
   */
  public CpuSet reachable() {
    return reachable;
  }

  /**
   * {@return the CPUs isolated by isolcpus {@code domain}, cgroup v2 isolated partitions or {@code
   * nohz_full}; it may hold CPUs this process cannot reach}
   */
  public CpuSet isolatedCpus() {
    return isolatedCpus;
  }

  /** {@return {@link #isolatedCpus()} within {@link #reachable()}, possibly empty} */
  public CpuSet exclusive() {
    return exclusive;
  }

  /** {@return the isolated CPUs whose physical core also holds a CPU that is not isolated} */
  public CpuSet isolatedWithSharedCore() {
    return PoolPolicy.halfInside(topology, isolatedCpus);
  }

  /**
   * {@return the default pool (isolated CPUs first) or the override's, resolved at probe time}
   *
   * @throws IllegalArgumentException for a host from {@link #diagnose(Path)} with a bad override
   */
  public CpuPool pool() {
    return pool.orElseThrow(() -> poolProblem.orElseThrow());
  }

  /**
   * {@return a pool of source {@code OVERRIDE}; the rest of {@link #reachable()} is housekeeping}
   *
   * @param cpus the CPUs to hand out; must be a non-empty subset of {@link #reachable()}
   */
  public CpuPool pool(CpuSet cpus) {
    return PoolPolicy.explicit(this, Objects.requireNonNull(cpus, "cpus"), "builder");
  }

  /**
   * {@return the kernel files the probe refused to read, as absent, at most 100} A FIFO, device or
   * socket, a link out of the tree, an oversized file, a {@code cpuN} past the limits.
   */
  public List<String> refused() {
    return refused;
  }
}
