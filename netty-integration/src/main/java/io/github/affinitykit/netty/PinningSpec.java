package io.github.affinitykit.netty;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.CpuGroupBuilder;
import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.placement.Placement;
import io.github.affinitykit.core.placement.RunOutPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import net.openhft.affinity.AffinityStrategy;

/**
 * How the loops of one group are pinned: the kit (host, backend, reservations), the pool, the
 * placements (or an explicit CPU per loop), the run-out policy, or no pinning at all.
 *
 * <pre>{@code
 * PinningSpec spec = PinningSpec.builder(kit).placements(DIFFERENT_CORE, ANY).build();
 * PinningSpec exact = PinningSpec.builder(kit).cpus(3, 2).build(); // loop 0 on cpu 3, loop 1 on 2
 * }</pre>
 *
 * <p>Thread safety: immutable; the builder is not thread-safe.
 */
public final class PinningSpec {
  private final Optional<AffinityKit> kit;
  private final Optional<CpuSet> pool;
  private final List<Placement> placements;
  private final List<Integer> cpus;
  private final RunOutPolicy runOut;
  private final boolean enabled;
  private final Optional<CpuSet> unpinnedMask;

  private PinningSpec(Builder b) {
    this.kit = b.kit;
    this.pool = b.pool;
    this.placements = List.copyOf(b.placements);
    this.cpus = List.copyOf(b.cpus);
    this.runOut = b.runOut;
    this.enabled = b.enabled;
    this.unpinnedMask = b.unpinnedMask;
  }

  /**
   * Returns the defaults on {@code kit}: its pool, {@code DIFFERENT_CORE} then {@code ANY}, run-out
   * {@link RunOutPolicy#UNPINNED}.
   */
  public static PinningSpec defaults(AffinityKit kit) {
    return builder(kit).build();
  }

  /** Returns a spec that pins nothing (loops run where the OS puts them; still reported). */
  public static PinningSpec off() {
    return new Builder(Optional.empty()).enabled(false).build();
  }

  /** Returns a builder on {@code kit} starting from {@link #defaults(AffinityKit)}. */
  public static Builder builder(AffinityKit kit) {
    return new Builder(Optional.of(Objects.requireNonNull(kit, "kit")));
  }

  /** Returns the kit; empty for {@link #off()}. */
  public Optional<AffinityKit> kit() {
    return kit;
  }

  /**
   * Returns the {@link CpuGroup} this spec describes: the one that plans, reserves and binds the
   * loops of group {@code name}.
   *
   * @throws IllegalArgumentException if the pool or the unpinned mask names CPUs this process may
   *     not use
   */
  CpuGroup group(String name) {
    if (!enabled || kit.isEmpty()) {
      return CpuGroup.unpinned(name, "off");
    }
    CpuGroupBuilder b = kit.get().group(name).placements(placements).runOut(runOut);
    pool.ifPresent(b::pool);
    unpinnedMask.ifPresent(b::unpinnedMask);
    return b.build();
  }

  /** Returns the pool to draw CPUs from, if not the kit's. */
  public Optional<CpuSet> pool() {
    return pool;
  }

  /** Returns the placements tried for each loop after the first. */
  public List<Placement> placements() {
    return placements;
  }

  /** Returns the explicit CPU of each loop, or empty when CPUs are planned. */
  public List<Integer> cpus() {
    return cpus;
  }

  /** Returns what happens to loops for which no CPU is left. */
  public RunOutPolicy runOut() {
    return runOut;
  }

  /** Returns whether loops are pinned at all. */
  public boolean enabled() {
    return enabled;
  }

  /** Returns the mask given to loops left unpinned, if not all CPUs this process may use. */
  public Optional<CpuSet> unpinnedMask() {
    return unpinnedMask;
  }

  /** Returns a builder holding this spec's values. */
  public Builder toBuilder() {
    Builder b = new Builder(kit);
    b.pool = pool;
    b.placements = placements;
    b.cpus = cpus;
    b.runOut = runOut;
    b.enabled = enabled;
    b.unpinnedMask = unpinnedMask;
    return b;
  }

  @Override
  public String toString() {
    if (!enabled) {
      return "PinningSpec[off]";
    }
    return "PinningSpec[pool="
        + pool.map(CpuSet::toString).orElse("kit's")
        + (cpus.isEmpty() ? ", placements=" + placements : ", cpus=" + cpus)
        + ", runOut="
        + runOut
        + "]";
  }

  /**
   * Builds a {@link PinningSpec}.
   *
   * <p>Thread safety: not thread-safe; build on one thread.
   */
  public static final class Builder {
    private final Optional<AffinityKit> kit;
    private Optional<CpuSet> pool = Optional.empty();
    private List<Placement> placements = List.of(Placement.DIFFERENT_CORE, Placement.ANY);
    private List<Integer> cpus = List.of();
    private RunOutPolicy runOut = RunOutPolicy.UNPINNED;
    private boolean enabled = true;
    private Optional<CpuSet> unpinnedMask = Optional.empty();

    private Builder(Optional<AffinityKit> kit) {
      this.kit = kit;
    }

    /** Draws CPUs from {@code cpus} instead of the kit's pool. */
    public Builder pool(CpuSet cpus) {
      this.pool = Optional.of(Objects.requireNonNull(cpus, "cpus"));
      return this;
    }

    /** Placements tried in order for each loop after the first (default DIFFERENT_CORE, ANY). */
    public Builder placements(Placement... placements) {
      this.placements = List.of(placements);
      return this;
    }

    /**
     * OpenHFT {@code AffinityStrategies} values, evaluated against the real topology.
     *
     * @throws IllegalArgumentException for a custom {@link AffinityStrategy} implementation
     */
    public Builder strategies(AffinityStrategy... strategies) {
      this.placements = Placement.fromStrategies(strategies);
      return this;
    }

    /**
     * Pins loop {@code i} to {@code cpus[i]} exactly (no planning); a CPU named twice is shared.
     * Empty (the default) means planned CPUs.
     */
    public Builder cpus(int... cpus) {
      List<Integer> out = new ArrayList<>();
      for (int c : cpus) {
        out.add(c);
      }
      this.cpus = List.copyOf(out);
      return this;
    }

    /** What to do when no CPU is left for a loop (default {@link RunOutPolicy#UNPINNED}). */
    public Builder runOut(RunOutPolicy policy) {
      this.runOut = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** Whether to pin at all (default true); false still reports where loops run. */
    public Builder enabled(boolean enabled) {
      this.enabled = enabled;
      return this;
    }

    /**
     * The mask for loops left unpinned (default: every CPU this process may use, so that a loop
     * never inherits the single CPU of a pinned creator). The boss of a small pool uses the
     * housekeeping CPUs.
     */
    public Builder unpinnedMask(CpuSet cpus) {
      this.unpinnedMask = Optional.of(Objects.requireNonNull(cpus, "cpus"));
      return this;
    }

    /** Builds the spec. */
    public PinningSpec build() {
      return new PinningSpec(this);
    }
  }
}
