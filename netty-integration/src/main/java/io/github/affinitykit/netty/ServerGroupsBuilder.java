package io.github.affinitykit.netty;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.Placement;
import io.github.affinitykit.core.ReservationStatus;
import io.github.affinitykit.core.RunOutPolicy;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * Builds {@link PinnedServerGroups}. Defaults: transport {@link Transport#AUTO}; the kit's pool;
 * workers = pool size - 1 (at least 1); the boss on its own CPU, planned first, when the pool holds
 * the boss, every worker and every business thread, otherwise on the housekeeping CPUs (it only
 * accepts connections; the report says so); workers {@code DIFFERENT_CORE} then {@code ANY};
 * business threads after the workers; run-out {@link RunOutPolicy#UNPINNED}.
 *
 * <p>Thread safety: not thread-safe; build on one thread.
 */
public final class ServerGroupsBuilder {
  private Optional<AffinityKit> kit = Optional.empty();
  private Transport transport = Transport.AUTO;
  private Optional<CpuSet> pool = Optional.empty();
  private OptionalInt workers = OptionalInt.empty();
  private int businessThreads;
  private boolean pinned = true;
  private RunOutPolicy runOut = RunOutPolicy.UNPINNED;
  private OptionalInt bossCpu = OptionalInt.empty();
  private PinningSpec.Builder workerSpec = PinningSpec.builder();
  private PinningSpec.Builder businessSpec = PinningSpec.builder();
  private IdlePolicy idlePolicy = IdlePolicy.BLOCK;
  private SpinLimit spinLimit = SpinLimit.DEFAULT;

  ServerGroupsBuilder() {}

  /** Uses {@code kit}; default {@link AffinityKit#shared()}. */
  public ServerGroupsBuilder kit(AffinityKit kit) {
    this.kit = Optional.of(Objects.requireNonNull(kit, "kit"));
    return this;
  }

  /** The transport; default {@link Transport#AUTO} (io_uring, epoll, NIO). */
  public ServerGroupsBuilder transport(Transport transport) {
    this.transport = Objects.requireNonNull(transport, "transport");
    return this;
  }

  /** Draws every group's CPUs from {@code cpus} instead of the kit's pool. */
  public ServerGroupsBuilder pool(CpuSet cpus) {
    this.pool = Optional.of(Objects.requireNonNull(cpus, "cpus"));
    return this;
  }

  /**
   * The number of worker loops.
   *
   * @throws IllegalArgumentException if not positive
   */
  public ServerGroupsBuilder workers(int workers) {
    if (workers <= 0) {
      throw new IllegalArgumentException("workers: " + workers + " (expected: > 0)");
    }
    this.workers = OptionalInt.of(workers);
    return this;
  }

  /**
   * The number of business executor threads; 0 (the default) means none.
   *
   * @throws IllegalArgumentException if negative
   */
  public ServerGroupsBuilder businessThreads(int threads) {
    if (threads < 0) {
      throw new IllegalArgumentException("businessThreads: " + threads + " (expected: >= 0)");
    }
    this.businessThreads = threads;
    return this;
  }

  /** Whether to pin at all (default true); false gives the same groups, unpinned, reported. */
  public ServerGroupsBuilder pinned(boolean pinned) {
    this.pinned = pinned;
    return this;
  }

  /** The run-out policy of every group (default {@link RunOutPolicy#UNPINNED}). */
  public ServerGroupsBuilder runOut(RunOutPolicy policy) {
    this.runOut = Objects.requireNonNull(policy, "policy");
    return this;
  }

  /** Pins the boss to {@code cpu} exactly. */
  public ServerGroupsBuilder bossCpu(int cpu) {
    this.bossCpu = OptionalInt.of(cpu);
    return this;
  }

  /** Placements of the workers (default DIFFERENT_CORE, ANY). */
  public ServerGroupsBuilder workerPlacements(Placement... placements) {
    workerSpec.placements(placements);
    return this;
  }

  /** Pins worker {@code i} to {@code cpus[i]} exactly; one CPU per worker. */
  public ServerGroupsBuilder workerCpus(int... cpus) {
    workerSpec.cpus(cpus);
    return this;
  }

  /** Placements of the business threads (default DIFFERENT_CORE, ANY). */
  public ServerGroupsBuilder businessPlacements(Placement... placements) {
    businessSpec.placements(placements);
    return this;
  }

  /** Pins business thread {@code i} to {@code cpus[i]} exactly; one CPU per thread. */
  public ServerGroupsBuilder businessCpus(int... cpus) {
    businessSpec.cpus(cpus);
    return this;
  }

  /**
   * How the worker loops wait when idle (default {@link IdlePolicy#BLOCK}, Netty's own); the boss
   * always blocks. A policy the transport cannot honour is reported in {@link
   * PinnedServerGroups#idle()}, never silently dropped.
   */
  public ServerGroupsBuilder idlePolicy(IdlePolicy policy) {
    this.idlePolicy = Objects.requireNonNull(policy, "policy");
    return this;
  }

  /** The spin limit of {@link IdlePolicy#SPIN_THEN_BLOCK} (default {@link SpinLimit#DEFAULT}). */
  public ServerGroupsBuilder spinLimit(SpinLimit limit) {
    this.spinLimit = Objects.requireNonNull(limit, "limit");
    return this;
  }

  /**
   * Chooses the transport, plans and reserves every CPU (boss, workers, business), and creates the
   * groups. Nothing runs until channels register.
   *
   * @throws IllegalStateException if a concrete transport cannot load here, or a run-out policy
   *     FAIL is hit
   * @throws IllegalArgumentException if explicit CPUs or the pool are not usable here
   */
  public PinnedServerGroups build() {
    TransportChoice choice = TransportChoice.choose(transport);
    AffinityKit k = kit.orElseGet(AffinityKit::shared);
    CpuSet cpus = pool.orElse(k.pool().cpus());
    PinningSpec ws = common(workerSpec, k, cpus).build();
    PinningSpec bs = common(businessSpec, k, cpus).build();
    int w = workers.orElse(ws.cpus().isEmpty() ? Math.max(1, cpus.size() - 1) : ws.cpus().size());
    int b = businessThreads == 0 ? bs.cpus().size() : businessThreads;
    PinningSpec base = common(PinningSpec.builder(), k, cpus).build();
    PinnedIoEventLoopGroup boss = null;
    PinnedIoEventLoopGroup work = null;
    try {
      boss =
          PinnedIoEventLoopGroup.create(
              "boss", 1, choice.transport().handlerFactory(), bossSpec(base, k, cpus, w + b));
      WorkerIdle idle =
          new WorkerIdle(k.host(), idlePolicy, IdleStrategies.of(idlePolicy, spinLimit));
      work =
          PinnedIoEventLoopGroup.create(
              "worker", w, choice.transport().handlerFactory(idle.strategies()), ws);
      Optional<PinnedEventExecutorGroup> business =
          b == 0
              ? Optional.empty()
              : Optional.of(PinnedEventExecutorGroup.create("business", b, bs));
      return new PinnedServerGroups(choice, boss, work, business, idle);
    } catch (RuntimeException e) {
      shutdown(boss);
      shutdown(work);
      throw e;
    }
  }

  private PinningSpec.Builder common(PinningSpec.Builder b, AffinityKit k, CpuSet cpus) {
    return b.kit(k).pool(cpus).runOut(runOut).enabled(pinned);
  }

  private PinningSpec bossSpec(PinningSpec base, AffinityKit k, CpuSet cpus, int others) {
    if (bossCpu.isPresent()) {
      return base.toBuilder().cpus(bossCpu.getAsInt()).build();
    }
    if (!pinned) {
      return base;
    }
    CpuSet mine = k.reservations().reservedHere().intersect(cpus);
    Map<ReservationStatus, CpuSet> taken = HeldCpus.probe(k.reservations(), cpus.minus(mine));
    CpuSet free = cpus.minus(mine);
    for (CpuSet c : taken.values()) {
      free = free.minus(c);
    }
    if (free.size() > others) {
      return base;
    }
    taken.put(ReservationStatus.HELD_BY_THIS_JVM, mine);
    CpuSet housekeeping = k.pool().housekeeping();
    CpuSet mask = housekeeping.isEmpty() ? k.host().reachable() : housekeeping;
    return base.toBuilder()
        .unpinnedMask(mask)
        .unpinnedBecause(
            "pool "
                + cpus
                + " has "
                + free.size()
                + " free CPU(s)"
                + HeldCpus.describe(taken)
                + " for 1 boss + "
                + others
                + " worker/business threads: the boss (it only accepts) runs on housekeeping CPUs "
                + mask)
        .build();
  }

  private static void shutdown(PinnedIoEventLoopGroup g) {
    if (g != null) {
      g.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }
}
