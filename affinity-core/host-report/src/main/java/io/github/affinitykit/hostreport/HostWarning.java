package io.github.affinitykit.hostreport;

import java.util.Objects;

/**
 * Something about the host that limits what pinning can achieve, in words a person can act on.
 *
 * <p>Thread safety: immutable.
 *
 * @param kind what kind of problem
 * @param message what was seen, with the CPUs involved, and what to do about it
 */
public record HostWarning(Kind kind, String message) {
  /** The kinds of warning. */
  public enum Kind {
    /** An isolated CPU whose SMT sibling is not isolated: the core is shared with general work. */
    ISOLATED_SIBLING_NOT_ISOLATED,
    /** IRQs are delivered to isolated CPUs. */
    IRQ_ON_ISOLATED,
    /** No CPU is isolated: pinned threads share their CPUs with the rest of the system. */
    NO_ISOLATION,
    /** The pool is empty: nothing will be pinned. */
    POOL_EMPTY,
    /** A cgroup (container, systemd slice) limits the process to part of the online CPUs. */
    CGROUP_RESTRICTED,
    /** The allowed mask (taskset, numactl, a pinned parent) limits the process. */
    MASK_RESTRICTED,
    /** Isolated CPUs exist but this process cannot reach them. */
    ISOLATED_UNREACHABLE,
    /** A kernel command-line parameter could not be parsed. */
    CMDLINE,
    /** A NIC's interrupts are delivered to CPUs of the pool, where pinned threads run. */
    NIC_IRQ_ON_POOL,
    /** A NIC sits on a NUMA node that holds none of the pool's CPUs. */
    NIC_REMOTE_NODE,
    /** The host has more than one NUMA node and the JVM runs without {@code -XX:+UseNUMA}. */
    JVM_NOT_NUMA_AWARE,
    /** The host has more than one NUMA node and the kernel balances NUMA memory on its own. */
    NUMA_BALANCING_ON,
    /**
     * A kernel file or directory entry was refused without being read, and counts as absent: a
     * FIFO, device or socket where a file belongs, a link out of the tree read ({@code doctor
     * --root}), a file larger than its kind of kernel file can be, or a {@code cpuN} or {@code
     * nodeN} past the kernel's limits (8192 CPUs, 1024 nodes). The message names it and the rule.
     */
    HOST_FILE_REFUSED
  }

  /**
   * Validates.
   *
   * @param kind what kind of problem; not null
   * @param message what was seen and what to do about it; not null
   */
  public HostWarning {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(message, "message");
  }
}
