package io.github.affinitykit.core.cpu;

import java.util.Objects;

/**
 * One logical CPU of the host, as the kernel describes it. Integers are {@code -1} when unknown;
 * sets are {@link CpuSet#empty()} when unknown. Every set holds only CPUs of the same {@link
 * CpuTopology#known()} snapshot, and the groups they describe partition those CPUs.
 *
 * <p>Thread safety: instances are immutable and safe to share between threads.
 *
 * @param cpu the logical CPU id (the kernel's {@code cpuN})
 * @param packageId the kernel's {@code physical_package_id} (socket), not necessarily dense
 * @param dieId the kernel's {@code die_id}
 * @param clusterId the kernel's {@code cluster_id}
 * @param coreId the kernel's {@code core_id}: per package and sparse; use {@link #core()}
 * @param core the CPUs of this physical core, this one included: the identity of the core
 * @param packageCpus the CPUs of this package ({@code package_cpus_list}); empty if unknown
 * @param node the NUMA node of this CPU, {@code -1} if none is known
 * @param l2 the CPUs sharing this CPU's level 2 unified or data cache; empty if unknown
 * @param l3 the CPUs sharing this CPU's level 3 unified or data cache; empty if unknown
 * @param coreType the kind of core on hybrid parts; {@link CoreType#UNIFORM} otherwise
 * @param kind the rank of this CPU's kind, 0 the least powerful (as hwloc's {@code cpukind}); -1 if
 *     all CPUs look alike or it is unknown
 */
public record CpuInfo(
    int cpu,
    int packageId,
    int dieId,
    int clusterId,
    int coreId,
    CpuSet core,
    CpuSet packageCpus,
    int node,
    CpuSet l2,
    CpuSet l3,
    CoreType coreType,
    int kind) {

  /**
   * Checks the values.
   *
   * @param cpu the logical CPU id, 0 or more
   * @param packageId the {@code physical_package_id}, -1 if unknown
   * @param dieId the {@code die_id}, -1 if unknown
   * @param clusterId the {@code cluster_id}, -1 if unknown
   * @param coreId the {@code core_id} (per package, sparse), -1 if unknown
   * @param core the CPUs of this physical core; not null
   * @param packageCpus the CPUs of this package, empty if unknown; not null
   * @param node the NUMA node, -1 if unknown
   * @param l2 the CPUs sharing this CPU's L2 cache, empty if unknown; not null
   * @param l3 the CPUs sharing this CPU's L3 cache, empty if unknown; not null
   * @param coreType the core type, {@link CoreType#UNIFORM} on non-hybrid parts; not null
   * @param kind the rank of this CPU's kind, 0 for the least powerful, -1 if all alike or unknown
   * @throws IllegalArgumentException if {@code cpu} is negative
   * @throws NullPointerException if a set or {@code coreType} is null
   */
  public CpuInfo {
    if (cpu < 0) {
      throw new IllegalArgumentException("cpu: " + cpu + " (expected: >= 0)");
    }
    Objects.requireNonNull(core, "core");
    Objects.requireNonNull(packageCpus, "packageCpus");
    Objects.requireNonNull(l2, "l2");
    Objects.requireNonNull(l3, "l3");
    Objects.requireNonNull(coreType, "coreType");
  }

  /**
   * {@return whether another logical CPU shares this CPU's physical core (SMT, hyper-threading)}
   */
  public boolean hasSmtSibling() {
    return core.size() > 1;
  }

  CpuInfo withGroups(CpuSet newCore, CpuSet newPackage, CpuSet newL2, CpuSet newL3) {
    return new CpuInfo(
        cpu,
        packageId,
        dieId,
        clusterId,
        coreId,
        newCore,
        newPackage,
        node,
        newL2,
        newL3,
        coreType,
        kind);
  }
}
