package io.github.affinitykit.core.host;

import io.github.affinitykit.core.cpu.CpuSet;
import java.util.Objects;

/**
 * The cgroup cpuset in force for this process: the CPUs the kernel lets it use at all.
 *
 * <p>Thread safety: immutable.
 *
 * @param version 1 or 2 for the hierarchy that holds the cpuset controller, 0 if none was found
 * @param path the process's cgroup path in that hierarchy ({@code "/"} for the root)
 * @param effective the effective CPUs of that cgroup; empty when {@code version} is 0
 * @param partition cgroup v2 {@code cpuset.cpus.partition} of the nearest cgroup that has one
 *     ({@code member}, {@code root}, {@code isolated}, {@code "... invalid (reason)"}), or empty
 * @param isolatedPartitions the CPUs of all cgroup v2 isolated partitions (root {@code
 *     cpuset.cpus.isolated}, kernel 6.8+); empty if unknown
 * @param source the file {@code effective} was read from, for the doctor; empty if none
 */
public record CgroupCpuset(
    int version,
    String path,
    CpuSet effective,
    String partition,
    CpuSet isolatedPartitions,
    String source) {

  /**
   * Validates.
   *
   * @param version 1 or 2 for the hierarchy with the cpuset controller, 0 if none; others rejected
   * @param path the cgroup path in that hierarchy, {@code "/"} for the root; not null
   * @param effective the cgroup's effective CPUs, empty when {@code version} is 0; not null
   * @param partition the nearest {@code cpuset.cpus.partition} value, empty if none; not null
   * @param isolatedPartitions the CPUs of all v2 isolated partitions, empty if unknown; not null
   * @param source the file {@code effective} was read from, empty if none; not null
   */
  public CgroupCpuset {
    if (version < 0 || version > 2) {
      throw new IllegalArgumentException("version: " + version + " (expected: 0, 1 or 2)");
    }
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(effective, "effective");
    Objects.requireNonNull(partition, "partition");
    Objects.requireNonNull(isolatedPartitions, "isolatedPartitions");
    Objects.requireNonNull(source, "source");
  }

  /** {@return no cpuset controller visible: version 0, path {@code "/"}, empty sets} */
  public static CgroupCpuset none() {
    return new CgroupCpuset(0, "/", CpuSet.empty(), "", CpuSet.empty(), "");
  }

  /** {@return whether a cpuset controller was found for this process} */
  public boolean present() {
    return version != 0;
  }

  /** {@return whether this process sits in a valid cgroup v2 isolated partition} */
  public boolean inIsolatedPartition() {
    return partition.equals("isolated");
  }
}
