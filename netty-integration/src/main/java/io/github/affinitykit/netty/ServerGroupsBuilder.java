package io.github.affinitykit.netty;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.CpuGroupBuilder;
import io.github.affinitykit.core.CpuIsolation;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.placement.Placement;
import io.github.affinitykit.core.placement.RunOutPolicy;
import io.github.affinitykit.hostreport.IrqSharing;
import io.github.affinitykit.hostreport.NicPlacement;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Builds {@link PinnedServerGroups}: the transport, how many loops, how the workers wait, and the
 * {@link CpuGroupBuilder} of each of the three groups (where their threads run is configured there,
 * once: pool, placements, explicit CPUs, run-out, pinning off, isolation). Defaults: transport
 * {@link Transport#AUTO}; workers = the worker group's pool size - 1 (at least 1), group {@code
 * worker} placed {@code DIFFERENT_CORE} then {@code ANY}; no business threads (group {@code
 * business}, placed as the workers, after them); the boss (group {@code boss}) last, on a CPU of
 * the pool the others left free, otherwise on the housekeeping CPUs (it only accepts connections;
 * its assignment says why).
 *
 * <p>Thread safety: not thread-safe; build on one thread.
 */
public final class ServerGroupsBuilder {
  private final AffinityKit kit;
  private Transport transport = Transport.AUTO;
  private OptionalInt workers = OptionalInt.empty();
  private int businessThreads;
  private CpuGroupBuilder workerGroup;
  private CpuGroupBuilder businessGroup;
  private Optional<CpuGroupBuilder> bossGroup = Optional.empty();
  private WaitPolicy waitPolicy = WaitPolicy.BLOCK;
  private SpinLimit spinLimit = SpinLimit.DEFAULT;

  /** Places the workers next to the NIC asked for, on the worker pool it is given. */
  private Optional<Function<CpuSet, NicPlacement>> nic = Optional.empty();

  ServerGroupsBuilder(AffinityKit kit) {
    this.kit = Objects.requireNonNull(kit, "kit");
    this.workerGroup = kit.group("worker").placements(Placement.DIFFERENT_CORE, Placement.ANY);
    this.businessGroup = kit.group("business").placements(Placement.DIFFERENT_CORE, Placement.ANY);
  }

  /**
   * The transport; default {@link Transport#AUTO} (io_uring, epoll, NIO).
   *
   * @param transport a concrete transport, or {@link Transport#AUTO}; not null
   * @return this builder
   */
  public ServerGroupsBuilder transport(Transport transport) {
    this.transport = Objects.requireNonNull(transport, "transport");
    return this;
  }

  /**
   * The number of worker loops.
   *
   * @param workers the number of worker loops, > 0; default: the worker pool's size - 1, at least 1
   * @return this builder
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
   * @param threads the number of business executor threads, >= 0
   * @return this builder
   * @throws IllegalArgumentException if negative
   */
  public ServerGroupsBuilder businessThreads(int threads) {
    if (threads < 0) {
      throw new IllegalArgumentException("businessThreads: " + threads + " (expected: >= 0)");
    }
    this.businessThreads = threads;
    return this;
  }

  /**
   * Places the worker loops next to network interface {@code nic}: on the worker group's CPUs on
   * the NIC's NUMA node, with or without those its interrupts are delivered to ({@link
   * NicPlacement}); where the NIC gives nothing to go by (virtual, no pool CPU on its node) the
   * pool stays whole. What was chosen, and why, is in {@link PinnedServerGroups#report()}.
   *
   * @param nic an interface of the kit's host ({@code eth0}); checked by {@link #build()}; not null
   * @param irqs whether the loops may share CPUs with the NIC's interrupts; not null
   * @return this builder
   */
  public ServerGroupsBuilder nic(String nic, IrqSharing irqs) {
    Objects.requireNonNull(nic, "nic");
    Objects.requireNonNull(irqs, "irqs");
    this.nic = Optional.of(pool -> NicPlacement.near(kit.host(), pool, nic, irqs));
    return this;
  }

  /**
   * The worker loops' group (default {@code kit.group("worker")}, DIFFERENT_CORE then ANY).
   *
   * @param group the worker loops' CPU group, built by {@link #build()}; not null
   * @return this builder
   */
  public ServerGroupsBuilder workerGroup(CpuGroupBuilder group) {
    this.workerGroup = Objects.requireNonNull(group, "group");
    return this;
  }

  /**
   * The business threads' group (default {@code kit.group("business")}, placed as the workers).
   *
   * @param group the business threads' CPU group, built only if there are any; not null
   * @return this builder
   */
  public ServerGroupsBuilder businessGroup(CpuGroupBuilder group) {
    this.businessGroup = Objects.requireNonNull(group, "group");
    return this;
  }

  /**
   * The boss's group, instead of the default (a CPU of the kit's pool the others left free, else
   * the housekeeping CPUs, whatever the run-out policy).
   *
   * @param group the boss loop's CPU group, built by {@link #build()}; not null
   * @return this builder
   */
  public ServerGroupsBuilder bossGroup(CpuGroupBuilder group) {
    this.bossGroup = Optional.of(Objects.requireNonNull(group, "group"));
    return this;
  }

  /**
   * How the worker loops wait when idle (default {@link WaitPolicy#BLOCK}, Netty's own); the boss
   * always blocks. A policy the transport cannot honour is reported in {@link
   * PinnedServerGroups#waits()}, never silently dropped.
   *
   * @param policy how idle worker loops wait; not null
   * @return this builder
   */
  public ServerGroupsBuilder waitPolicy(WaitPolicy policy) {
    this.waitPolicy = Objects.requireNonNull(policy, "policy");
    return this;
  }

  /**
   * The spin limit of {@link WaitPolicy#SPIN_THEN_BLOCK} (default {@link SpinLimit#DEFAULT}).
   *
   * @param limit how long an idle worker polls before it blocks; not null
   * @return this builder
   */
  public ServerGroupsBuilder spinLimit(SpinLimit limit) {
    this.spinLimit = Objects.requireNonNull(limit, "limit");
    return this;
  }

  /**
   * Chooses the transport, plans and reserves every CPU (boss, workers, business), and creates the
   * groups. Nothing runs until channels register.
   *
   * @return the groups, every CPU reserved; close them to free the CPUs
   * @throws IllegalStateException if a concrete transport cannot load here, or a run-out policy
   *     FAIL is hit
   * @throws IllegalArgumentException if explicit CPUs or the pool are not usable here
   */
  public PinnedServerGroups build() {
    TransportChoice choice = TransportChoice.choose(transport);
    PinnedIoEventLoopGroup boss = null;
    PinnedIoEventLoopGroup work = null;
    Optional<PinnedEventExecutorGroup> business = Optional.empty();
    try {
      WaitSelectStrategyFactory idle = WaitSelectStrategyFactory.of(waitPolicy, spinLimit);
      Optional<NicPlacement> near = nic.map(n -> n.apply(workerGroup.pool()));
      near.ifPresent(p -> workerGroup.pool(p.cpus()));
      CpuGroup workerCpus = workerGroup.build();
      int w = workers.orElse(Math.max(1, workerCpus.pool().size() - 1));
      work = PinnedIoEventLoopGroup.create(w, choice.transport().handlerFactory(idle), workerCpus);
      if (businessThreads > 0) {
        business =
            Optional.of(PinnedEventExecutorGroup.create(businessThreads, businessGroup.build()));
      }
      boss =
          PinnedIoEventLoopGroup.create(
              1, choice.transport().handlerFactory(), bossGroup.orElseGet(this::boss).build());
      Optional<CpuIsolation> isolation = workerCpus.isolation();
      return new PinnedServerGroups(
          choice, boss, work, business, idle, kit.host(), isolation, near);
    } catch (RuntimeException | Error e) { // a native handler may fail to load: free what started
      shutdown(boss);
      shutdown(work);
      business.ifPresent(g -> g.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly());
      throw e;
    }
  }

  /**
   * The boss only accepts connections: it takes a CPU of the pool the workers and business threads
   * left free; when there is none it runs on the housekeeping CPUs, whatever the run-out policy,
   * and its assignment says why (from the group's own reservation attempts).
   */
  private CpuGroupBuilder boss() {
    CpuSet housekeeping = kit.pool().housekeeping();
    CpuSet mask = housekeeping.isEmpty() ? kit.host().reachable() : housekeeping;
    return kit.group("boss").runOut(RunOutPolicy.UNPINNED).unpinnedMask(mask);
  }

  private static void shutdown(PinnedIoEventLoopGroup g) {
    if (g != null) {
      g.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }
}
