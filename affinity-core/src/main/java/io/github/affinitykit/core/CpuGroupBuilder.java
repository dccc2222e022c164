package io.github.affinitykit.core;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.placement.Placement;
import io.github.affinitykit.core.placement.RunOutPolicy;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * Configures a {@link CpuGroup}: the one place a group of threads is configured, whichever adapter
 * runs it (a {@link PinnedThreadFactory}, the Netty loop groups, a Disruptor's threads take this
 * builder). Each option's rule:
 *
 * <ul>
 *   <li>{@link #pool}: the CPUs the group draws from; default the kit's pool.
 *   <li>{@link #placements}/{@link #strategies}: how member <i>i</i> &gt; 0 is placed relative to
 *       member <i>i</i> - 1, tried in order; default {@link Placement#ANY}.
 *   <li>{@link #cpus}: member <i>i</i> takes the <i>i</i>-th CPU named, no planning; default none.
 *   <li>{@link #runOut}: what a member gets when no CPU is left; default {@link
 *       RunOutPolicy#UNPINNED}.
 *   <li>{@link #unpinnedMask}: where a member without a CPU runs; default the CPUs this process may
 *       use less the isolated ones.
 *   <li>{@link #unpinned}: pinning off, with the reason every member reports; default on.
 *   <li>{@link #isolate}: make the group's CPUs exclusive at runtime; default off.
 *   <li>{@link #wholeCores}: each member holds a whole core (all SMT siblings); default off.
 *   <li>{@link #memoryPolicy}: the NUMA memory policy each pinned member's thread takes
 *       (affinity-numa); default none, which leaves it alone.
 *   <li>{@link #rule}: any of these as text, and at most how many CPUs the group holds ({@code
 *       count}); the grammar is docs/groups.md's.
 * </ul>
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
   * Placements tried in order for each member after the first; empty means {@code ANY}.
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
   * OpenHFT {@code AffinityStrategies} values, evaluated against the real topology (see {@link
   * Placement#fromStrategies}).
   *
   * @param strategies OpenHFT {@code AffinityStrategies} constants, in member order
   * @return this builder
   * @throws IllegalArgumentException for a constant of any other enum (see {@link
   *     Placement#fromStrategies})
   */
  public CpuGroupBuilder strategies(Enum<?>... strategies) {
    return placements(Placement.fromStrategies(strategies));
  }

  /**
   * Pins member {@code i} (in joining order) to {@code cpus[i]} exactly, no planning: a CPU named
   * twice is shared within the group, as {@link CpuGroup#joinOn} shares it. Empty (the default)
   * means planned CPUs.
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
   * Pins nothing: every member is {@link LeaseStatus#UNPINNED} with {@code reason} and gets the
   * unpinned mask (set it to {@link CpuSet#empty()} to leave threads' masks alone).
   *
   * @param reason why pinning is off, as every member reports it
   * @return this builder
   */
  public CpuGroupBuilder unpinned(String reason) {
    this.unpinned = Optional.of(Objects.requireNonNull(reason, "reason"));
    return this;
  }

  /**
   * Sets the mask a member that gets no CPU is confined to while it is bound (its lease restores
   * the thread's mask). Default: the CPUs this process may use less the isolated ones (all of them
   * if nothing else is left), so that it neither keeps a pinned creator's CPU nor lands on the CPUs
   * the pool keeps quiet; {@link CpuSet#empty()} leaves it alone.
   *
   * @param mask the CPUs such a member runs on; empty leaves its mask alone
   * @return this builder
   */
  public CpuGroupBuilder unpinnedMask(CpuSet mask) {
    this.unpinnedMask = Optional.of(Objects.requireNonNull(mask, "mask"));
    return this;
  }

  /**
   * Whether to make the group's CPUs exclusive to this JVM's pinned threads at runtime ({@link
   * AffinityKit#isolate}; default false). It changes the whole machine, other processes included:
   * ask for it only where a person did. Which CPUs: those the members hold once {@link
   * CpuGroup#joinAll} has seated them (a fixed set of threads: Netty's loops, a Disruptor's
   * threads); for a group whose members join one at a time ({@link CpuGroup#join}, {@link
   * CpuGroup#joinOn}: a thread factory's threads), its whole pool, at the first join. Members are
   * let onto those CPUs as they bind. Undone once the group is closed and its last seat freed, or
   * at JVM exit. The kit's isolator does it ({@link AffinityKit#isolate(CpuSet)}: the artifact
   * affinity-isolation, found on the class path). Without permission, or without that artifact, the
   * group pins as usual and {@link CpuGroup#isolation()}'s reason says why. A group that pins
   * nothing, or holds no CPU, isolates nothing.
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

  /**
   * Returns the CPUs the group would take from if built now: the pool given, else the kit's.
   *
   * @return this builder's pool
   */
  public CpuSet pool() {
    return resolvedPool();
  }

  /**
   * Sets the NUMA memory policy of each pinned member's thread (default none: left alone): {@code
   * io.github.affinitykit.numa.MemoryPolicy} of the artifact affinity-numa, or {@link
   * ThreadMemoryPolicy#named(String)}. The thread sets it itself when its seat binds, right after
   * its affinity ({@code set_mempolicy} acts on the caller), having read its previous policy, which
   * it sets again when the binding ends (if the lease is closed on that thread: from another thread
   * the policy stays, and the status says so). {@code MemoryPolicy.LOCAL} allocates on the pinned
   * CPU's node. A refusal (no native layer, {@code EPERM}, {@code EINVAL}) leaves the pin standing:
   * {@link CpuLease#memoryPolicy()} says why. A member that pins nothing (UNPINNED, UNSUPPORTED, a
   * failed pin) sets nothing. The restore is skipped (and said) when the thread's policy changed
   * since the bind, so leases on one thread are best closed in the reverse order of their binds; a
   * previous policy's mode flags ({@code MPOL_F_STATIC_NODES}, {@code MPOL_F_RELATIVE_NODES}) are
   * not carried back by the restore.
   *
   * @param policy the policy; {@link #build()} checks its nodes are this host's
   * @return this builder
   */
  public CpuGroupBuilder memoryPolicy(ThreadMemoryPolicy policy) {
    this.memoryPolicy = Optional.of(Objects.requireNonNull(policy, "policy"));
    return this;
  }

  /**
   * Sets the options {@code rule} names, in the grammar of docs/groups.md: {@code
   * count:4,placement:DIFFERENT_CORE,runout:SHARE} or {@code cpus:2-5,...}; {@code count:N} holds
   * at most N CPUs at once (more members follow the run-out policy). Nothing is set unless the
   * whole rule reads.
   *
   * @param rule the options, {@code key:value} separated by commas
   * @return this builder
   * @throws IllegalArgumentException naming the option and what was expected: {@code <group name>:
   *     count:0 (expected: a positive number of CPUs)}
   */
  public CpuGroupBuilder rule(String rule) {
    GroupRule.parse(name, Objects.requireNonNull(rule, "rule")).applyTo(this);
    return this;
  }

  /**
   * Builds the group.
   *
   * @return a new open group; it reserves nothing before a member joins
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
          name
              + ": cpus: "
              + cpus
              + " (expected: "
              + members
              + " CPUs, one per member, among the CPUs this process may use: "
              + reachable
              + ")");
    }
  }

  /** A group with explicit CPUs seats member {@code index} only while it has a CPU for it. */
  static void checkNextExplicit(String name, List<Integer> cpus, int index) {
    if (index >= cpus.size()) {
      throw new IllegalStateException(
          name
              + ": members: "
              + (index + 1)
              + " (expected: at most "
              + cpus.size()
              + ", one per explicit cpu of "
              + cpus
              + ")");
    }
  }

  static void checkReachable(String name, String what, CpuSet cpus, CpuSet reachable) {
    if (!reachable.containsAll(cpus)) {
      throw new IllegalArgumentException(
          name
              + ": "
              + what
              + ": "
              + cpus
              + " (expected: CPUs this process may use: "
              + reachable
              + ")");
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

  /**
   * The CPUs a member without a CPU runs on by default: those this process may use, less the
   * isolated ones the pool exists to keep quiet (all of them if nothing else is left).
   */
  private static CpuSet general(AffinityKit k) {
    CpuSet reachable = k.host().reachable();
    CpuSet general = reachable.minus(k.host().isolatedCpus());
    return general.isEmpty() ? reachable : general;
  }
}
