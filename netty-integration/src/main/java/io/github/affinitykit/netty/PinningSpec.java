package io.github.affinitykit.netty;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.Placement;
import io.github.affinitykit.core.RunOutPolicy;
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
 * PinningSpec spec = PinningSpec.builder().kit(kit).placements(DIFFERENT_CORE, ANY).build();
 * PinningSpec exact = PinningSpec.builder().cpus(3, 2).build(); // loop 0 on cpu 3, loop 1 on 2
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
  private final Optional<String> unpinnedBecause;

  private PinningSpec(Builder b) {
    this.kit = b.kit;
    this.pool = b.pool;
    this.placements = List.copyOf(b.placements);
    this.cpus = List.copyOf(b.cpus);
    this.runOut = b.runOut;
    this.enabled = b.enabled;
    this.unpinnedMask = b.unpinnedMask;
    this.unpinnedBecause = b.unpinnedBecause;
  }

  /**
   * Returns the defaults: {@link AffinityKit#shared()}, its pool, {@code DIFFERENT_CORE} then
   * {@code ANY}, run-out {@link RunOutPolicy#UNPINNED}.
   */
  public static PinningSpec defaults() {
    return builder().build();
  }

  /** Returns a spec that pins nothing (loops run where the OS puts them; still reported). */
  public static PinningSpec off() {
    return builder().enabled(false).build();
  }

  /** Returns a builder starting from {@link #defaults()}. */
  public static Builder builder() {
    return new Builder();
  }

  /** Returns the kit, resolving the default {@link AffinityKit#shared()} now. */
  public AffinityKit kit() {
    return kit.orElseGet(AffinityKit::shared);
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

  /** Returns why every loop is left unpinned on purpose (on {@link #unpinnedMask()}), if so. */
  Optional<String> unpinnedBecause() {
    return unpinnedBecause;
  }

  /** Returns a builder holding this spec's values. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.kit = kit;
    b.pool = pool;
    b.placements = placements;
    b.cpus = cpus;
    b.runOut = runOut;
    b.enabled = enabled;
    b.unpinnedMask = unpinnedMask;
    b.unpinnedBecause = unpinnedBecause;
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
    private Optional<AffinityKit> kit = Optional.empty();
    private Optional<CpuSet> pool = Optional.empty();
    private List<Placement> placements = List.of(Placement.DIFFERENT_CORE, Placement.ANY);
    private List<Integer> cpus = List.of();
    private RunOutPolicy runOut = RunOutPolicy.UNPINNED;
    private boolean enabled = true;
    private Optional<CpuSet> unpinnedMask = Optional.empty();
    private Optional<String> unpinnedBecause = Optional.empty();

    private Builder() {}

    /**
     * Uses {@code kit} (host, backend, reservations, pool); default {@link AffinityKit#shared()}.
     */
    public Builder kit(AffinityKit kit) {
      this.kit = Optional.of(Objects.requireNonNull(kit, "kit"));
      return this;
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

    /** Leaves every loop unpinned on purpose, on the unpinned mask, for {@code reason}. */
    Builder unpinnedBecause(String reason) {
      this.unpinnedBecause = Optional.of(Objects.requireNonNull(reason, "reason"));
      return this;
    }

    /** Builds the spec. */
    public PinningSpec build() {
      return new PinningSpec(this);
    }
  }
}
