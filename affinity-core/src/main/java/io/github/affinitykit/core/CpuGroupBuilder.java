package io.github.affinitykit.core;

import io.github.affinitykit.core.placement.Placement;
import io.github.affinitykit.core.placement.RunOutPolicy;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.IntStream;
import net.openhft.affinity.AffinityStrategy;

/**
 * Configures a {@link CpuGroup}. Defaults: the kit's pool, placement {@link Placement#ANY}, run-out
 * {@link RunOutPolicy#UNPINNED}, unpinned members confined to the CPUs this process may use less
 * the isolated ones.
 *
 * <p>Thread safety: not thread-safe; build on one thread.
 */
public final class CpuGroupBuilder {
  private final Optional<AffinityKit> kit;
  private final String name;
  private Optional<CpuSet> pool = Optional.empty();
  private List<Placement> placements = List.of(Placement.ANY);
  private List<Integer> cpus = List.of();
  private RunOutPolicy runOut = RunOutPolicy.UNPINNED;
  private Optional<String> off = Optional.empty();
  private Optional<CpuSet> unpinnedMask = Optional.empty();

  CpuGroupBuilder(Optional<AffinityKit> kit, String name) {
    this.kit = kit;
    this.name = Objects.requireNonNull(name, "name");
  }

  /** Draws CPUs from {@code cpus} instead of the kit's pool. */
  public CpuGroupBuilder pool(CpuSet cpus) {
    this.pool = Optional.of(Objects.requireNonNull(cpus, "cpus"));
    return this;
  }

  /** Placements tried in order for each member after the first; empty means {@code ANY}. */
  public CpuGroupBuilder placements(List<Placement> placements) {
    this.placements = placements.isEmpty() ? List.of(Placement.ANY) : List.copyOf(placements);
    return this;
  }

  /** As {@link #placements(List)}. */
  public CpuGroupBuilder placements(Placement... placements) {
    return placements(List.of(placements));
  }

  /**
   * OpenHFT {@code AffinityStrategies} values, evaluated against the real topology (see {@link
   * Placement#fromStrategies}).
   *
   * @throws IllegalArgumentException for a custom {@link AffinityStrategy} implementation
   */
  public CpuGroupBuilder strategies(AffinityStrategy... strategies) {
    return placements(Placement.fromStrategies(strategies));
  }

  /**
   * Pins member {@code i} (in joining order) to {@code cpus[i]} exactly, no planning: a CPU named
   * twice is shared within the group, as {@link CpuGroup#joinOn} shares it. Empty (the default)
   * means planned CPUs.
   */
  public CpuGroupBuilder cpus(int... cpus) {
    this.cpus = IntStream.of(cpus).boxed().toList();
    return this;
  }

  /** What to do when no CPU is left (default {@link RunOutPolicy#UNPINNED}). */
  public CpuGroupBuilder runOut(RunOutPolicy policy) {
    this.runOut = Objects.requireNonNull(policy, "policy");
    return this;
  }

  /**
   * Pins nothing: every member is {@link LeaseStatus#UNPINNED} with {@code reason} and gets the
   * unpinned mask (set it to {@link CpuSet#empty()} to leave threads' masks alone).
   */
  public CpuGroupBuilder off(String reason) {
    this.off = Optional.of(Objects.requireNonNull(reason, "reason"));
    return this;
  }

  /**
   * Sets the mask a member that gets no CPU is confined to while it is bound (its lease restores
   * the thread's mask). Default: the CPUs this process may use less the isolated ones (all of them
   * if nothing else is left), so that it neither keeps a pinned creator's CPU nor lands on the CPUs
   * the pool keeps quiet; {@link CpuSet#empty()} leaves it alone.
   */
  public CpuGroupBuilder unpinnedMask(CpuSet mask) {
    this.unpinnedMask = Optional.of(Objects.requireNonNull(mask, "mask"));
    return this;
  }

  /**
   * Builds the group.
   *
   * @throws IllegalArgumentException if the pool, the unpinned mask or the explicit CPUs name CPUs
   *     this process may not use
   */
  public CpuGroup build() {
    kit.ifPresent(
        k -> {
          CpuSet reachable = k.host().reachable();
          checkReachable(name, "pool", resolvedPool(), reachable);
          checkReachable(name, "unpinnedMask", resolvedMask(), reachable);
          checkExplicit(name, cpus, cpus.size(), reachable);
        });
    return new CpuGroup(kit, name, resolvedPool(), placements, cpus, runOut, off, resolvedMask());
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

  /** The pool: as set, else the kit's; empty without a kit. */
  private CpuSet resolvedPool() {
    return kit.map(k -> pool.orElse(k.pool().cpus())).orElse(CpuSet.empty());
  }

  /** The unpinned mask: as set, else every CPU this process may use; empty without a kit. */
  private CpuSet resolvedMask() {
    return unpinnedMask.orElseGet(() -> kit.map(CpuGroupBuilder::general).orElse(CpuSet.empty()));
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
