package io.github.affinitykit.isolation;

/**
 * How CPUs are made exclusive at runtime, best first. The isolation takes the best one the host
 * allows and reports why the better ones were not possible.
 *
 * <p>Thread safety: an enum.
 */
public enum Mechanism {
  /**
   * A cgroup v2 {@code isolated} partition (Linux 6.1+), a threaded child of the JVM's cgroup
   * holding only the pinned threads, when the JVM sits in the root cgroup: the kernel takes the
   * CPUs out of every other cgroup and out of the scheduler's load balancing.
   */
  CGROUP_V2_PARTITION,
  /**
   * A remote cgroup v2 {@code isolated} partition ({@code cpuset.cpus.exclusive}, Linux 6.7+), for
   * a JVM deep in a hierarchy (a systemd service, a container): the CPUs are claimed exclusive down
   * the JVM's ancestors, whose parents need not be partitions themselves.
   */
  CGROUP_V2_REMOTE_PARTITION,
  /**
   * cgroup v1 cpusets, the way {@code cset shield} does it: the tasks of the JVM's cpuset move to a
   * sibling set without the CPUs, the pinned threads to one with only them.
   */
  CGROUP_V1_CPUSET,
  /**
   * No cgroup: every movable task's affinity is narrowed off the CPUs; new processes inherit the
   * narrowed masks, but nothing stops a process from asking for the CPUs again.
   */
  AFFINITY_SHIELD,
  /** Nothing was (or would be) changed: see the report's refusal. */
  NONE
}
