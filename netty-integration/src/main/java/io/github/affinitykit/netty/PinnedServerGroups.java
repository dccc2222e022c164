package io.github.affinitykit.netty;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuIsolation;
import io.github.affinitykit.core.ExclusivityAudit;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.hostreport.NicPlacement;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.util.concurrent.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A server's boss and worker event loop groups, and an optional business executor, pinned from one
 * pool on one transport: the Netty 4.2 replacement for the seed gateway's {@code
 * AffinityThreadFactory} setup.
 *
 * <pre>{@code
 * try (PinnedServerGroups groups = PinnedServerGroups.builder(kit).workers(4).build()) {
 *   new ServerBootstrap().group(groups.boss(), groups.workers())
 *       .channel(groups.serverChannel()) ...
 *   System.out.println(groups.report());
 * }
 * }</pre>
 *
 * <p>Thread safety: the groups are Netty's, thread-safe; {@link #report()} may be called from any
 * thread; {@link #close()} and {@link #shutdownGracefully} may be called from any thread but a
 * loop's own.
 */
public final class PinnedServerGroups implements AutoCloseable {
  private final TransportChoice transport;
  private final PinnedIoEventLoopGroup boss;
  private final PinnedIoEventLoopGroup workers;
  private final Optional<PinnedEventExecutorGroup> business;
  private final WaitSelectStrategyFactory idle;
  private final HostCpus host;
  private final Optional<CpuIsolation> isolation;
  private final Optional<NicPlacement> nic;
  private boolean decided; // guarded by this: whether the workers' wait rule has been asked

  PinnedServerGroups(
      TransportChoice transport,
      PinnedIoEventLoopGroup boss,
      PinnedIoEventLoopGroup workers,
      Optional<PinnedEventExecutorGroup> business,
      WaitSelectStrategyFactory idle,
      HostCpus host,
      Optional<CpuIsolation> isolation,
      Optional<NicPlacement> nic) {
    this.transport = Objects.requireNonNull(transport, "transport");
    this.boss = Objects.requireNonNull(boss, "boss");
    this.workers = Objects.requireNonNull(workers, "workers");
    this.business = Objects.requireNonNull(business, "business");
    this.idle = Objects.requireNonNull(idle, "idle");
    this.host = Objects.requireNonNull(host, "host");
    this.isolation = Objects.requireNonNull(isolation, "isolation");
    this.nic = Objects.requireNonNull(nic, "nic");
    if (idle.requested() == WaitPolicy.AUTO) { // AUTO's loops wait as the rule says: ask it now
      decideIdle(CpuSet.empty(), CpuSet.empty());
    } // other policies fix every loop's mode themselves: the rule is asked when first reported
  }

  /**
   * Returns a builder on {@code kit}: transport AUTO, workers from its pool, no business executor.
   *
   * @param kit the kit whose pool and host the groups are planned on; not null
   * @return a new builder; nothing is reserved until {@link ServerGroupsBuilder#build()}
   */
  public static ServerGroupsBuilder builder(AffinityKit kit) {
    return new ServerGroupsBuilder(kit);
  }

  /**
   * Returns the transport in use, and why.
   *
   * @return the choice made at build time; its {@code transport()} is never {@link Transport#AUTO}
   */
  public TransportChoice transport() {
    return transport;
  }

  /**
   * Returns the server channel class of the transport, for {@code ServerBootstrap.channel}.
   *
   * @return the io_uring, epoll or NIO server socket channel class
   */
  public Class<? extends ServerSocketChannel> serverChannel() {
    return transport.transport().serverChannel();
  }

  /**
   * Returns the boss group (accepts connections): one loop.
   *
   * @return the boss group, the same on every call
   */
  public PinnedIoEventLoopGroup boss() {
    return boss;
  }

  /**
   * Returns the worker group (channel I/O).
   *
   * @return the worker group, the same on every call
   */
  public PinnedIoEventLoopGroup workers() {
    return workers;
  }

  /**
   * Returns the business executor group, if one was asked for.
   *
   * @return the group; empty when the builder's {@code businessThreads} was 0
   */
  public Optional<PinnedEventExecutorGroup> business() {
    return business;
  }

  /**
   * Returns where every loop runs now (boss, workers, then business executors) and how the workers
   * wait when idle.
   *
   * @return a new snapshot on each call: the transport, every loop, the workers' idle decision
   */
  public AssignmentReport report() {
    return new AssignmentReport(transport, allLoops(), waits().report(), nic);
  }

  /**
   * Returns how the worker loops wait when idle, and why (see {@link WaitPolicy}).
   *
   * @return the strategies Netty was given, with the decision in force: made at build time under
   *     {@link WaitPolicy#AUTO} (otherwise the rule's answers are asked for at the first call of
   *     this or {@link #report()}, when they only inform), or by the last {@link #applyAudit}
   */
  public synchronized WaitSelectStrategyFactory waits() {
    return decided ? idle : decideIdle(CpuSet.empty(), CpuSet.empty());
  }

  /**
   * Decides the workers' wait policy again with {@code audit}'s verdicts: under {@link
   * WaitPolicy#AUTO} a worker alone on its core spins (then blocks) only where the audit found its
   * CPU EXCLUSIVE (or its whole core is isolated). Run the audit once the loops have started and
   * the rest of the JVM is confined elsewhere (affinity-audit's {@code JvmThreads.confine}); the
   * audit ({@code kit.audit}, made by the artifact affinity-audit) counts this kit's pinned loops
   * as owners; without that artifact every CPU is UNKNOWN and no worker spins for it. Other
   * policies keep their mode; their reasons are updated.
   *
   * @param audit this host's CPU verdicts, taken once the loops have started; not null
   * @return the strategies, with the decision now in force
   */
  public WaitSelectStrategyFactory applyAudit(ExclusivityAudit audit) {
    Objects.requireNonNull(audit, "audit");
    return decideIdle(audit.exclusive(), audit.audited());
  }

  private synchronized WaitSelectStrategyFactory decideIdle(
      CpuSet auditedExclusive, CpuSet audited) {
    idle.decide(
        host, transport.transport(), workers.assignments(), allLoops(), auditedExclusive, audited);
    decided = true;
    return idle;
  }

  private List<LoopAssignment> allLoops() {
    List<LoopAssignment> loops = new ArrayList<>(boss.assignments());
    loops.addAll(workers.assignments());
    business.ifPresent(b -> loops.addAll(b.assignments()));
    return loops;
  }

  /**
   * Returns the runtime isolation of the workers' CPUs, if their group asked for it ({@link
   * io.github.affinitykit.core.CpuGroupBuilder#isolate}): its reason says whether it was made, and
   * affinity-isolation's {@code Isolation.of(handle).report()} how, and what stays.
   *
   * @return the workers' isolation; empty when their group did not ask for one
   */
  public Optional<CpuIsolation> isolation() {
    return isolation;
  }

  /**
   * Returns where the worker loops were placed next to a NIC, if the builder was given one ({@link
   * ServerGroupsBuilder#nic}): the NIC, its node, the CPUs chosen and why.
   *
   * @return the placement next to the NIC; empty when none was asked for
   */
  public Optional<NicPlacement> nic() {
    return nic;
  }

  /**
   * Shuts every group down gracefully (Netty's quiet period and timeout); the returned future
   * completes when all have terminated and their CPUs are free.
   *
   * @param quiet the quiet period in {@code unit}: a group ends once no task came for this long
   * @param timeout the most each group waits before it shuts down anyway, in {@code unit}
   * @param unit the unit of {@code quiet} and {@code timeout}; not null
   * @return a future completed normally, never exceptionally, once every group has terminated
   */
  public CompletableFuture<Void> shutdownGracefully(long quiet, long timeout, TimeUnit unit) {
    Objects.requireNonNull(unit, "unit");
    List<CompletableFuture<Void>> all = new ArrayList<>();
    all.add(done(boss.shutdownGracefully(quiet, timeout, unit)));
    all.add(done(workers.shutdownGracefully(quiet, timeout, unit)));
    business.ifPresent(b -> all.add(done(b.shutdownGracefully(quiet, timeout, unit))));
    return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new));
  }

  private static CompletableFuture<Void> done(Future<?> f) {
    CompletableFuture<Void> out = new CompletableFuture<>();
    f.addListener(x -> out.complete(null));
    return out;
  }

  /** Shuts down with a 100 ms quiet period (5 s at most) and waits until all have terminated. */
  @Override
  public void close() {
    shutdownGracefully(100, 5_000, TimeUnit.MILLISECONDS).join();
  }
}
