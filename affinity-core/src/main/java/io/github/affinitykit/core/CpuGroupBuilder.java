package io.github.affinitykit.core;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.placement.Placement;
import io.github.affinitykit.core.placement.RunOutPolicy;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * Configures a {@link CpuGroup}, whichever adapter runs it (a {@link PinnedThreadFactory}, Netty's
 * loops, a Disruptor's threads). Each setter states its default.
 *
 * <p>The system property {@code affinitykit.group.<name>} or the environment variable {@code
 * AFFINITYKIT_GROUP_<NAME>} overrides the code: {@link #build()} applies its rule last, and every
 * member's reason says so (docs/groups.md has the mapping of names to variables).
 *
 * <p>Thread safety: not thread-safe; build on one thread.
 */
public final class CpuGroupBuilder {
  private final AffinityKit kit;
  private final String name;
  private Optional<CpuSet> pool = Optional.empty();
  private List<Placement> placements = List.of(Placement.ANY);
  private List<Integer> cpus = List.of();
  private RunOutPolicy runOut = RunOutPolicy.UNPINNED;
  private Optional<String> unpinned = Optional.empty();
  private Optional<CpuSet> unpinnedMask = Optional.empty();
  private boolean isolate;
  private Optional<ThreadMemoryPolicy> memoryPolicy = Optional.empty();
  private int count;
  private boolean wholeCores;
  private String placedBy = "";

  CpuGroupBuilder(AffinityKit kit, String name) {
    this.kit = kit;
    this.name = Objects.requireNonNull(name, "name");
  }

  /**
   * Draws CPUs from {@code cpus} instead of the kit's pool.
   *
   * @param cpus the CPUs to draw from; {@link #build()} checks this process may use them
   * @return this builder
   */
  public CpuGroupBuilder pool(CpuSet cpus) {
    this.pool = Optional.of(Objects.requireNonNull(cpus, "cpus"));
    return this;
  }

  /**
   * Placements tried in order for each member after the first; empty (the default) means {@code
   * ANY}.
   *
   * @param placements how member <i>i</i> is placed relative to member <i>i</i> - 1; copied
   * @return this builder
   */
  public CpuGroupBuilder placements(List<Placement> placements) {
    this.placements = placements.isEmpty() ? List.of(Placement.ANY) : List.copyOf(placements);
    return this;
  }

  /**
   * As {@link #placements(List)}.
   *
   * @param placements as for {@link #placements(List)}
   * @return this builder
   */
  public CpuGroupBuilder placements(Placement... placements) {
    return placements(List.of(placements));
  }

  /**
   * OpenHFT {@code AffinityStrategies} values, evaluated against the real topology.
   *
   * @param strategies OpenHFT {@code AffinityStrategies} constants, in member order
   * @return this builder
   * @throws IllegalArgumentException as {@link Placement#fromStrategies}
   */
  public CpuGroupBuilder strategies(Enum<?>... strategies) {
    return placements(Placement.fromStrategies(strategies));
  }

  /**
   * Pins member {@code i} (in joining order) to {@code cpus[i]}, no planning; a CPU named twice is
   * shared. Empty (the default) means planned CPUs.
   *
   * @param cpus each member's CPU, 0-based, in joining order; a CPU may repeat
   * @return this builder
   */
  public CpuGroupBuilder cpus(int... cpus) {
    this.cpus = IntStream.of(cpus).boxed().toList();
    return this;
  }

  /**
   * What to do when no CPU is left (default {@link RunOutPolicy#UNPINNED}).
   *
   * @param policy what a member gets once no CPU of the pool is left for it
   * @return this builder
   */
  public CpuGroupBuilder runOut(RunOutPolicy policy) {
    this.runOut = Objects.requireNonNull(policy, "policy");
    return this;
  }

  /**
   * Pins nothing (default: pinning on): every member is {@link LeaseStatus#UNPINNED} with {@code
   * reason} and gets the unpinned mask.
   *
   * @param reason why pinning is off, as every member reports it
   * @return this builder
   */
  public CpuGroupBuilder unpinned(String reason) {
    this.unpinned = Optional.of(Objects.requireNonNull(reason, "reason"));
    return this;
  }

  /**
   * Sets the mask a member without a CPU is confined to while bound. Default: the CPUs this process
   * may use less the isolated ones (all if nothing else is left).
   *
   * @param mask the CPUs such a member runs on; empty leaves its mask alone
   * @return this builder
   */
  public CpuGroupBuilder unpinnedMask(CpuSet mask) {
    this.unpinnedMask = Optional.of(Objects.requireNonNull(mask, "mask"));
    return this;
  }

  /**
   * Whether to make the group's CPUs exclusive to this JVM's pinned threads at runtime with {@link
   * AffinityKit#isolate(CpuSet)} (default false); it changes the whole machine. The CPUs held after
   * {@link CpuGroup#joinAll}, else the pool at the first join; undone once the group is closed and
   * its last seat freed, or at JVM exit. Refused, the group pins as usual and {@link
   * CpuGroup#isolation()} says why.
   *
   * @param isolate true to isolate the group's CPUs at runtime
   * @return this builder
   */
  public CpuGroupBuilder isolate(boolean isolate) {
    this.isolate = isolate;
    return this;
  }

  /**
   * Whether each pinned member takes a whole core (default false), as OpenHFT's {@code
   * AffinityLock.acquireCore()}: its seat reserves every CPU of the core (all SMT siblings, across
   * processes, as one CPU is reserved) and pins the thread to the core's first CPU; the others stay
   * idle, so nothing else runs on the core's execution units. A core is taken only if all its CPUs
   * are in the pool and free; the next one is tried, and the run-out policy decides when none is
   * left; {@code count} then counts cores. The seat's reason names the core ({@code whole core
   * 4-5}), {@link CpuLease#cpus()} its CPUs; a core of one CPU (no SMT) is a plain seat, which the
   * reason says.
   *
   * @param wholeCores true to give each member a whole core
   * @return this builder
   */
  public CpuGroupBuilder wholeCores(boolean wholeCores) {
    this.wholeCores = wholeCores;
    return this;
  }

  /** {@return the CPUs the group would draw from if built now: the pool given, else the kit's} */
  public CpuSet pool() {
    return resolvedPool();
  }

  /**
   * Sets the NUMA memory policy of each pinned member's thread (default none: left alone), e.g.
   * affinity-numa's {@code MemoryPolicy}. The thread sets it right after its affinity and restores
   * the previous one when its lease is closed on that thread (from another, it stays); a refusal
   * leaves the pin standing and {@link CpuLease#memoryPolicy()} says why. The restore is skipped
   * when the policy changed since the bind (close leases in reverse bind order) and drops the mode
   * flags {@code MPOL_F_STATIC_NODES}/{@code MPOL_F_RELATIVE_NODES}.
   *
   * @param policy the policy; {@link #build()} checks its nodes are this host's
   * @return this builder
   */
  public CpuGroupBuilder memoryPolicy(ThreadMemoryPolicy policy) {
    this.memoryPolicy = Optional.of(Objects.requireNonNull(policy, "policy"));
    return this;
  }

  /**
   * Sets the options {@code rule} names (docs/groups.md), e.g. {@code
   * count:4,placement:DIFFERENT_CORE,runout:SHARE}; {@code count:N} holds at most N CPUs at once.
   * Nothing is set unless the whole rule reads.
   *
   * @param rule the options, {@code key:value} separated by commas
   * @return this builder
   * @throws IllegalArgumentException naming the option and what was expected
   */
  public CpuGroupBuilder rule(String rule) {
    GroupRule.parse(name, Objects.requireNonNull(rule, "rule")).applyTo(this);
    return this;
  }

  /**
   * {@return a new open group; it reserves nothing before a member joins}
   *
   * @throws IllegalArgumentException if the pool, the unpinned mask or the explicit CPUs name CPUs
   *     this process may not use, the memory policy names a node this host lacks, or the group's
   *     property or variable holds a bad rule (or they disagree)
   */
  public CpuGroup build() {
    GroupOverride.find(name)
        .ifPresent(
            o -> {
              o.rule().applyTo(this);
              placedBy = "; placed by " + o.origin() + ", not the code";
            });
    CpuSet reachable = kit.host().reachable();
    memoryPolicy.ifPresent(p -> checkNodes(name, p, kit));
    checkReachable(name, "pool", resolvedPool(), reachable);
    checkReachable(name, "unpinnedMask", resolvedMask(), reachable);
    checkExplicit(name, cpus, cpus.size(), reachable);
    return new CpuGroup(this);
  }

  CpuGroupBuilder count(int cpus) {
    this.count = cpus;
    return this;
  }

  /** Clears where the code put the group: a rule that says where replaces it whole. */
  void where(Optional<CpuSet> pool, List<Integer> cpus, int count) {
    this.pool = pool;
    this.cpus = cpus;
    this.count = count;
  }

  // What the group's constructor reads, once, on the building thread: every option, resolved.

  int countLimit() {
    return count;
  }

  String placedBy() {
    return placedBy;
  }

  AffinityKit kit() {
    return kit;
  }

  String name() {
    return name;
  }

  List<Placement> placementList() {
    return placements;
  }

  List<Integer> cpuList() {
    return cpus;
  }

  RunOutPolicy runOutPolicy() {
    return runOut;
  }

  Optional<String> unpinnedReason() {
    return unpinned;
  }

  boolean isolates() {
    return isolate;
  }

  boolean wholeCoreSeats() {
    return wholeCores;
  }

  Optional<ThreadMemoryPolicy> memory() {
    return memoryPolicy;
  }

  /** The policy's nodes must be this host's (node 0 alone where the host shows no node). */
  private static void checkNodes(String name, ThreadMemoryPolicy policy, AffinityKit kit) {
    List<Integer> nodes = List.copyOf(kit.host().topology().numaNodes().keySet());
    try {
      policy.checkNodes(nodes.isEmpty() ? List.of(0) : nodes);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(name + ": memoryPolicy " + e.getMessage(), e);
    }
  }

  /** Explicit CPUs must be {@code members} in number and CPUs this process may use. */
  static void checkExplicit(String name, List<Integer> cpus, int members, CpuSet reachable) {
    CpuSet named = CpuSet.of(cpus.stream().mapToInt(Integer::intValue).toArray());
    if (cpus.size() != members || !reachable.containsAll(named)) {
      throw new IllegalArgumentException(
          String.format(
              "%s: cpus: %s (expected: %d CPUs, one per member, among the CPUs this process may"
                  + " use: %s)",
              name, cpus, members, reachable));
    }
  }

  /** A group with explicit CPUs seats member {@code index} only while it has a CPU for it. */
  static void checkNextExplicit(String name, List<Integer> cpus, int index) {
    if (index >= cpus.size()) {
      throw new IllegalStateException(
          String.format(
              "%s: members: %d (expected: at most %d, one per explicit cpu of %s)",
              name, index + 1, cpus.size(), cpus));
    }
  }

  static void checkReachable(String name, String what, CpuSet cpus, CpuSet reachable) {
    if (!reachable.containsAll(cpus)) {
      throw new IllegalArgumentException(
          String.format(
              "%s: %s: %s (expected: CPUs this process may use: %s)", name, what, cpus, reachable));
    }
  }

  /** The pool: as set, else the kit's. */
  private CpuSet resolvedPool() {
    return pool.orElseGet(() -> kit.pool().cpus());
  }

  /** The unpinned mask: as set, else every CPU this process may use but the isolated ones. */
  CpuSet resolvedMask() {
    return unpinnedMask.orElseGet(() -> general(kit));
  }

  /** The default unpinned mask: the CPUs this process may use but the isolated ones, else all. */
  private static CpuSet general(AffinityKit k) {
    CpuSet reachable = k.host().reachable();
    CpuSet general = reachable.minus(k.host().isolatedCpus());
    return general.isEmpty() ? reachable : general;
  }
}
