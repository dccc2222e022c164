package io.github.affinitykit.numa;

import io.github.affinitykit.core.ThreadMemoryPolicy;
import io.github.affinitykit.core.cpu.CpuSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * A NUMA memory policy: where the kernel takes the pages a thread (or a range of memory) allocates.
 * {@link #DEFAULT} leaves a thread's policy alone; {@link #LOCAL} allocates on the node of the CPU
 * the thread runs on (for a pinned thread, its CPU's node); {@link #bind} only on the nodes named;
 * {@link #preferred} on one node first, others when it is full; {@link #interleave} page by page
 * over the nodes named. A group applies it to each pinned member ({@code
 * CpuGroupBuilder.memoryPolicy}: as core's {@link ThreadMemoryPolicy}, through {@link
 * MemoryBackend#detect()}, or the backend given to {@link #through}), {@link NodeMemory} to a
 * buffer; {@link MemoryPolicyStatus#of(io.github.affinitykit.core.CpuLease)} reads what became of
 * it on a lease's thread. {@link #parse} reads {@link #toString()}'s spelling back.
 *
 * <p>The factories check the nodes' form (not empty, 0 to {@value #MAX_NODE}); which nodes a host
 * has is checked where the policy meets the host (the group's builder, the kernel).
 *
 * <p>Thread safety: immutable.
 */
public final class MemoryPolicy implements ThreadMemoryPolicy {
  /** The highest node a policy may name: the kernel's {@code MAX_NUMNODES} is at most 1024. */
  public static final int MAX_NODE = 1023;

  /** Leave the thread's policy as it is (the process's, usually local allocation). */
  public static final MemoryPolicy DEFAULT = new MemoryPolicy(Mode.DEFAULT, CpuSet.empty());

  /** Allocate on the node of the CPU the thread runs on ({@code MPOL_LOCAL}, Linux 3.8+). */
  public static final MemoryPolicy LOCAL = new MemoryPolicy(Mode.LOCAL, CpuSet.empty());

  /** The kernel's policy modes ({@code MPOL_*}), with their numbers. */
  public enum Mode {
    /** {@code MPOL_DEFAULT}. */
    DEFAULT,
    /** {@code MPOL_PREFERRED}: one node first. */
    PREFERRED,
    /** {@code MPOL_BIND}: only these nodes. */
    BIND,
    /** {@code MPOL_INTERLEAVE}: page by page over these nodes. */
    INTERLEAVE,
    /** {@code MPOL_LOCAL}: the allocating CPU's node. */
    LOCAL,
    /** {@code MPOL_PREFERRED_MANY} (Linux 5.15+): these nodes first; read back, never asked for. */
    PREFERRED_MANY,
    /** {@code MPOL_WEIGHTED_INTERLEAVE} (Linux 6.9+): read back, never asked for. */
    WEIGHTED_INTERLEAVE;

    /** {@return the kernel's number of this mode ({@code MPOL_BIND} is 2)} */
    public int kernel() {
      return ordinal();
    }

    /**
     * Returns the mode of a kernel number.
     *
     * @param mode a number {@code get_mempolicy} returned, its mode flags (bits 13 and up) ignored
     * @return the mode
     * @throws IllegalArgumentException for a number this library does not know
     */
    public static Mode ofKernel(int mode) {
      int m = mode & 0x1fff;
      if (m >= values().length) {
        throw new IllegalArgumentException(
            "mode: " + mode + " (expected: an MPOL_ mode, 0-" + (values().length - 1) + ")");
      }
      return values()[m];
    }
  }

  private final Mode mode;
  private final CpuSet nodes;

  private MemoryPolicy(Mode mode, CpuSet nodes) {
    this.mode = mode;
    this.nodes = nodes;
  }

  /**
   * Allocates only on {@code nodes} ({@code MPOL_BIND}): an allocation fails (or the OOM killer
   * runs) rather than spill to another node.
   *
   * @param nodes the nodes, 0 to {@value #MAX_NODE}; at least one
   * @return the policy
   * @throws IllegalArgumentException for no node, or a node out of range
   */
  public static MemoryPolicy bind(int... nodes) {
    return of(Mode.BIND, nodes);
  }

  /**
   * Allocates on {@code node} first, on others when it is full ({@code MPOL_PREFERRED}).
   *
   * @param node the node, 0 to {@value #MAX_NODE}
   * @return the policy
   * @throws IllegalArgumentException for a node out of range
   */
  public static MemoryPolicy preferred(int node) {
    return of(Mode.PREFERRED, node);
  }

  /**
   * Allocates page by page over {@code nodes} in turn ({@code MPOL_INTERLEAVE}): bandwidth over
   * latency, for memory every node's threads read.
   *
   * @param nodes the nodes, 0 to {@value #MAX_NODE}; at least one
   * @return the policy
   * @throws IllegalArgumentException for no node, or a node out of range
   */
  public static MemoryPolicy interleave(int... nodes) {
    return of(Mode.INTERLEAVE, nodes);
  }

  /**
   * Returns the policy of {@code mode} over {@code nodes}, as the kernel states it: {@link
   * #DEFAULT} and {@link #LOCAL} take no node (a {@code PREFERRED} without a node is {@code LOCAL},
   * as old kernels report it), {@code PREFERRED} one, every other mode at least one.
   *
   * @param mode the mode
   * @param nodes the nodes, 0 to {@value #MAX_NODE}
   * @return the policy
   * @throws IllegalArgumentException if the number of nodes does not fit the mode, or a node is out
   *     of range
   */
  public static MemoryPolicy of(Mode mode, int... nodes) {
    Objects.requireNonNull(mode, "mode");
    if (IntStream.of(nodes).anyMatch(n -> n < 0 || n > MAX_NODE)) {
      throw new IllegalArgumentException(
          "nodes: " + IntStream.of(nodes).boxed().toList() + " (expected: 0-" + MAX_NODE + ")");
    }
    CpuSet set = CpuSet.of(nodes);
    boolean none = mode == Mode.DEFAULT || mode == Mode.LOCAL;
    if (mode == Mode.PREFERRED && set.isEmpty()) {
      return LOCAL;
    }
    if (none ? !set.isEmpty() : set.isEmpty() || mode == Mode.PREFERRED && set.size() > 1) {
      String rule = none ? "none" : mode == Mode.PREFERRED ? "one node" : "at least one node";
      throw new IllegalArgumentException(
          name(mode) + " nodes: [" + set + "] (expected: " + rule + ")");
    }
    return none ? (mode == Mode.DEFAULT ? DEFAULT : LOCAL) : new MemoryPolicy(mode, set);
  }

  /**
   * Returns the policy {@code spec} names, as {@link #toString()} prints it: {@code default},
   * {@code local}, or a mode and its nodes ({@code bind 0-1}, {@code preferred 1}, {@code
   * interleave 0,2}). Core's {@link ThreadMemoryPolicy#named(String)} reads names through it.
   *
   * @param spec the policy's name
   * @return the policy
   * @throws IllegalArgumentException if {@code spec} names no mode, or its nodes do not fit it
   */
  public static MemoryPolicy parse(String spec) {
    String[] parts = spec.strip().split("\\s+", 2);
    Mode mode =
        Stream.of(Mode.values())
            .filter(m -> name(m).equals(parts[0]))
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "memory policy: "
                            + spec
                            + " (expected: default, local, bind N, preferred N, interleave N)"));
    return of(mode, parts.length < 2 ? new int[0] : CpuSet.parse(parts[1]).stream().toArray());
  }

  /**
   * Returns this policy applied to a group's threads through {@code backend} instead of {@link
   * MemoryBackend#detect()}'s: a recording fake in tests.
   *
   * @param backend the backend every thread's policy goes through
   * @return the policy as a group applies it
   */
  public ThreadMemoryPolicy through(MemoryBackend backend) {
    Objects.requireNonNull(backend, "backend");
    MemoryPolicy policy = this;
    return new ThreadMemoryPolicy() {
      @Override
      public ThreadMemoryPolicy checkNodes(List<Integer> hostNodes) {
        policy.checkNodes(hostNodes);
        return this;
      }

      @Override
      public Binding apply() {
        return ThreadMemory.apply(backend, policy);
      }

      @Override
      public Binding leftAlone(String why) {
        return policy.leftAlone(why);
      }

      @Override
      public String toString() {
        return policy + " through " + backend;
      }
    };
  }

  /**
   * Sets this policy on the calling thread through {@link MemoryBackend#detect()}'s backend: what a
   * group does right after pinning a thread.
   *
   * @return what became of it; never throws for a refusal
   */
  @Override
  public Binding apply() {
    return ThreadMemory.apply(MemoryBackend.detect(), this);
  }

  /**
   * Returns a binding that set nothing, saying {@code why}.
   *
   * @param why one line for people
   * @return a binding whose status is {@code LEFT_ALONE}
   */
  @Override
  public Binding leftAlone(String why) {
    return ThreadMemory.leftAlone(this, why);
  }

  /** {@return the mode} */
  public Mode mode() {
    return mode;
  }

  /** {@return the nodes, ascending; empty for {@link #DEFAULT} and {@link #LOCAL}} */
  public List<Integer> nodes() {
    return nodes.stream().boxed().toList();
  }

  /** The nodes as a set, for masks and messages. */
  CpuSet nodeSet() {
    return nodes;
  }

  /** The nodes as the kernel's mask (bit {@code i} of word {@code w}: node {@code 64w + i}). */
  long[] mask() {
    return nodes.toBitSet().toLongArray();
  }

  /**
   * Checks that every node named is one of {@code hostNodes}.
   *
   * @param hostNodes the host's nodes
   * @return this policy
   * @throws IllegalArgumentException naming the nodes the host lacks
   */
  @Override
  public MemoryPolicy checkNodes(List<Integer> hostNodes) {
    CpuSet host = CpuSet.of(hostNodes.stream().mapToInt(Integer::intValue).toArray());
    CpuSet missing = nodes.minus(host);
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException(
          "nodes: " + missing + " (expected: a node of this host: " + host + ")");
    }
    return this;
  }

  private static String name(Mode mode) {
    return mode.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MemoryPolicy p && p.mode == mode && p.nodes.equals(nodes);
  }

  @Override
  public int hashCode() {
    return mode.hashCode() * 31 + nodes.hashCode();
  }

  /** {@return {@code default}, {@code local}, {@code bind 0-1}, {@code preferred 1}, ...} */
  @Override
  public String toString() {
    return nodes.isEmpty() ? name(mode) : name(mode) + " " + nodes;
  }
}
