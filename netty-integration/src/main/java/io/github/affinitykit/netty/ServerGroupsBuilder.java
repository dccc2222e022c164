package io.github.affinitykit.netty;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.CpuGroupBuilder;
import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.isolation.Isolation;
import io.github.affinitykit.core.placement.Placement;
import io.github.affinitykit.core.placement.RunOutPolicy;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * Builds {@link PinnedServerGroups}. Defaults: transport {@link Transport#AUTO}; the kit's pool;
 * workers = pool size - 1 (at least 1), {@code DIFFERENT_CORE} then {@code ANY}; business threads
 * after the workers; the boss last, on a CPU of the pool they left free, otherwise on the
 * housekeeping CPUs (it only accepts connections; its assignment says why); run-out {@link
 * RunOutPolicy#UNPINNED}. Every group is a {@link io.github.affinitykit.core.CpuGroup}.
 *
 * <p>Thread safety: not thread-safe; build on one thread.
 */
public final class ServerGroupsBuilder {
  private static final List<Placement> SPREAD = List.of(Placement.DIFFERENT_CORE, Placement.ANY);
  private final AffinityKit kit;
  private Transport transport = Transport.AUTO;
  private Optional<CpuSet> pool = Optional.empty();
  private OptionalInt workers = OptionalInt.empty();
  private int businessThreads;
  private boolean pinned = true;
  private RunOutPolicy runOut = RunOutPolicy.UNPINNED;
  private OptionalInt bossCpu = OptionalInt.empty();
  private List<Placement> workerPlacements = SPREAD;
  private int[] workerCpus = new int[0];
  private List<Placement> businessPlacements = SPREAD;
  private int[] businessCpus = new int[0];
  private IdlePolicy idlePolicy = IdlePolicy.BLOCK;
  private SpinLimit spinLimit = SpinLimit.DEFAULT;
  private boolean isolate;

  ServerGroupsBuilder(AffinityKit kit) {
    this.kit = Objects.requireNonNull(kit, "kit");
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
    this.workerPlacements = List.of(placements);
    return this;
  }

  /** Pins worker {@code i} to {@code cpus[i]} exactly; one CPU per worker. */
  public ServerGroupsBuilder workerCpus(int... cpus) {
    this.workerCpus = cpus.clone();
    return this;
  }

  /** Placements of the business threads (default DIFFERENT_CORE, ANY). */
  public ServerGroupsBuilder businessPlacements(Placement... placements) {
    this.businessPlacements = List.of(placements);
    return this;
  }

  /** Pins business thread {@code i} to {@code cpus[i]} exactly; one CPU per thread. */
  public ServerGroupsBuilder businessCpus(int... cpus) {
    this.businessCpus = cpus.clone();
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
   * Whether to make the worker loops' CPUs exclusive at runtime once they are reserved ({@link
   * AffinityKit#isolate}; default false): it changes the whole machine, other processes included.
   * Loops are let onto them as they start; it is undone when the worker group has terminated, or at
   * JVM exit. Without permission the loops are pinned as usual and {@link
   * PinnedServerGroups#isolation()} says why. Only the workers: one isolation per machine at a
   * time, and they are the loops that wait for the network.
   */
  public ServerGroupsBuilder isolate(boolean isolate) {
    this.isolate = isolate;
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
    CpuSet cpus = pool.orElse(kit.pool().cpus());
    int w =
        workers.orElse(workerCpus.length == 0 ? Math.max(1, cpus.size() - 1) : workerCpus.length);
    int b = businessThreads == 0 ? businessCpus.length : businessThreads;
    PinnedIoEventLoopGroup boss = null;
    PinnedIoEventLoopGroup work = null;
    Optional<PinnedEventExecutorGroup> business = Optional.empty();
    try {
      WorkerIdle idle =
          new WorkerIdle(kit.host(), idlePolicy, IdleStrategies.of(idlePolicy, spinLimit));
      CpuGroup workerGroup = group("worker", workerPlacements, workerCpus);
      work =
          PinnedIoEventLoopGroup.create(
              w, choice.transport().handlerFactory(idle.strategies()), workerGroup);
      Optional<Isolation> isolation =
          isolate && pinned && !workerGroup.held().isEmpty()
              ? Optional.of(workerGroup.isolate(workerGroup.held()))
              : Optional.empty();
      if (b > 0) {
        business =
            Optional.of(
                PinnedEventExecutorGroup.create(
                    b, group("business", businessPlacements, businessCpus)));
      }
      boss = PinnedIoEventLoopGroup.create(1, choice.transport().handlerFactory(), boss());
      return new PinnedServerGroups(choice, boss, work, business, idle, isolation);
    } catch (RuntimeException | Error e) { // a native handler may fail to load: free what started
      shutdown(boss);
      shutdown(work);
      business.ifPresent(g -> g.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly());
      throw e;
    }
  }

  private CpuGroup group(String name, List<Placement> placements, int[] explicit) {
    return pinned
        ? common(name).placements(placements).cpus(explicit).build()
        : CpuGroup.unpinned(name, "off");
  }

  private CpuGroupBuilder common(String name) {
    CpuGroupBuilder b = kit.group(name).placements(SPREAD).runOut(runOut);
    pool.ifPresent(b::pool);
    return b;
  }

  /**
   * The boss only accepts connections: it takes a CPU of the pool the workers and business threads
   * left free; when there is none it runs on the housekeeping CPUs, whatever the run-out policy,
   * and its assignment says why (from the group's own reservation attempts).
   */
  private CpuGroup boss() {
    if (!pinned) {
      return CpuGroup.unpinned("boss", "off");
    }
    if (bossCpu.isPresent()) {
      return common("boss").cpus(bossCpu.getAsInt()).build();
    }
    CpuSet housekeeping = kit.pool().housekeeping();
    CpuSet mask = housekeeping.isEmpty() ? kit.host().reachable() : housekeeping;
    return common("boss").runOut(RunOutPolicy.UNPINNED).unpinnedMask(mask).build();
  }

  private static void shutdown(PinnedIoEventLoopGroup g) {
    if (g != null) {
      g.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }
}
