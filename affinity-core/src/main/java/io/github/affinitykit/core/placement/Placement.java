package io.github.affinitykit.core.placement;

import io.github.affinitykit.core.cpu.CpuInfo;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuTopology;

/**
 * Where the next thread goes relative to the one placed before it, evaluated against {@link
 * CpuTopology}. The first five map OpenHFT's {@code AffinityStrategies} one to one; the last three
 * use NUMA nodes and L3 caches (an L3 is not a package on AMD CCX or Intel SNC parts). {@link
 * #DIFFERENT_CORE} is stronger than OpenHFT's: a core not yet used by this plan.
 *
 * <p>Thread safety: immutable.
 */
public enum Placement {
  /** The SMT sibling of the previous CPU: same physical core, another hardware thread. */
  SAME_CORE,
  /** Same package (socket) as the previous CPU, another physical core. */
  SAME_SOCKET,
  /** A physical core not used yet by this plan. */
  DIFFERENT_CORE,
  /** Another package than the previous CPU. */
  DIFFERENT_SOCKET,
  /** Any free CPU of the pool. */
  ANY,
  /** Same NUMA node as the previous CPU (unknown nodes count as one node). */
  SAME_NUMA_NODE,
  /** Another NUMA node than the previous CPU. */
  DIFFERENT_NUMA_NODE,
  /** Shares the previous CPU's L3 cache (its package when the L3 is unknown). */
  SAME_L3;

  /**
   * {@return whether {@code candidate} satisfies this placement after {@code previous}, given the
   * CPUs already assigned by the plan: the test a group's planner applies to each free CPU}
   *
   * @param t the host's topology; it must know both CPUs
   * @param candidate the CPU tried for the next member
   * @param previous the CPU of the member placed before it
   * @param assigned the CPUs the group holds now
   */
  public boolean matches(CpuTopology t, int candidate, int previous, CpuSet assigned) {
    CpuInfo c = t.cpu(candidate);
    CpuInfo p = t.cpu(previous);
    return switch (this) {
      case SAME_CORE -> candidate != previous && p.core().contains(candidate);
      case SAME_SOCKET -> c.packageId() == p.packageId() && !p.core().contains(candidate);
      case DIFFERENT_CORE -> !c.core().intersects(assigned);
      case DIFFERENT_SOCKET -> c.packageId() != p.packageId();
      case ANY -> true;
      case SAME_NUMA_NODE -> c.node() == p.node();
      case DIFFERENT_NUMA_NODE -> c.node() != p.node();
      case SAME_L3 ->
          p.l3().isEmpty() ? c.packageId() == p.packageId() : p.l3().contains(candidate);
    };
  }

  /** The OpenHFT enum whose constants {@link #fromStrategies} maps, by name. */
  private static final String OPENHFT_STRATEGIES = "net.openhft.affinity.AffinityStrategies";

  /**
   * {@return the placement named as an OpenHFT {@code AffinityStrategies} value, or ours}
   *
   * @param name the constant's exact name, case-sensitive, e.g. {@code "DIFFERENT_CORE"}
   * @throws IllegalArgumentException naming the value and the accepted names
   */
  public static Placement fromName(String name) {
    for (Placement p : values()) {
      if (p.name().equals(name)) {
        return p;
      }
    }
    throw new IllegalArgumentException(
        "placement: " + name + " (expected: one of " + java.util.Arrays.toString(values()) + ")");
  }

  /**
   * {@return the placements named as OpenHFT {@code AffinityStrategies} values, in order} No
   * OpenHFT is needed on the class path.
   *
   * @param strategies OpenHFT {@code AffinityStrategies} constants, in member order
   * @throws IllegalArgumentException for a constant of any other enum (a custom {@code
   *     AffinityStrategy} reads OpenHFT's {@code /proc/cpuinfo} layout, not the real topology)
   */
  public static java.util.List<Placement> fromStrategies(Enum<?>... strategies) {
    java.util.List<Placement> out = new java.util.ArrayList<>();
    for (Enum<?> s : strategies) {
      String type = s.getDeclaringClass().getName();
      if (!type.equals(OPENHFT_STRATEGIES)) {
        throw new IllegalArgumentException(
            String.format(
                "strategy: %s.%s (expected: a value of %s; a custom AffinityStrategy reads"
                    + " OpenHFT's /proc/cpuinfo layout, not the real topology: use Placement)",
                type, s.name(), OPENHFT_STRATEGIES));
      }
      out.add(fromName(s.name()));
    }
    return java.util.List.copyOf(out);
  }
}
