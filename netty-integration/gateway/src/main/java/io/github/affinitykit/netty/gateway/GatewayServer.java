package io.github.affinitykit.netty.gateway;

import io.github.affinitykit.audit.ConfineReport;
import io.github.affinitykit.audit.Confinement;
import io.github.affinitykit.audit.CpuAudit;
import io.github.affinitykit.audit.JvmThreads;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.placement.Placement;
import io.github.affinitykit.isolation.Isolation;
import io.github.affinitykit.micrometer.AffinityMeterBinder;
import io.github.affinitykit.netty.AssignmentReport;
import io.github.affinitykit.netty.LoopAssignment;
import io.github.affinitykit.netty.PinnedServerGroups;
import io.github.affinitykit.netty.ServerGroupsBuilder;
import io.github.affinitykit.netty.WaitPolicy;
import io.github.affinitykit.watchdog.Watchdog;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.EventExecutorGroup;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;

/**
 * The reference WebSocket gateway, running: {@code /ws} echo, {@code /room} broadcast, {@code
 * /health}, {@code /metrics} (or {@code /metrics} on an address of its own, served by the boss
 * loop), on pinned boss/worker loops (see {@link PinMode}); at most {@code --max-connections} TCP
 * connections at once ({@link ConnectionLimit}).
 *
 * <pre>{@code
 * try (GatewayServer s = GatewayServer.start(GatewayConfig.DEFAULTS, kit)) {
 *   System.out.println(s.port() + " " + s.report());
 * }
 * }</pre>
 *
 * <p>{@link #close()} is the graceful stop (also run by {@link GatewayMain}'s SIGTERM hook): stop
 * accepting, send every WebSocket a 1001 close after the replies to the messages it already sent,
 * wait up to the drain timeout for clients to close, close the rest, stop the loops and free their
 * CPUs.
 *
 * <p>Thread safety: every method may be called from any thread but the gateway's own loops.
 */
public final class GatewayServer implements AutoCloseable {
  /** How long the workers' CPUs are watched for other tasks before AUTO lets a loop spin. */
  private static final Duration AUDIT_WINDOW = Duration.ofMillis(500);

  /** How often threads the JVM starts later are confined too, in exclusive mode. */
  private static final Duration SWEEP_PERIOD = Duration.ofSeconds(1);

  private final PinnedServerGroups groups;
  private final GatewayContext context;
  private final Channel server;
  private final Optional<Channel> metricsServer;
  private final Optional<Confinement> confinement;
  private final Optional<Watchdog> watchdog;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final CountDownLatch stopped = new CountDownLatch(1);

  private GatewayServer(
      PinnedServerGroups groups,
      GatewayContext context,
      Channel server,
      Optional<Channel> metricsServer,
      Optional<Confinement> confinement,
      Optional<Watchdog> watchdog) {
    this.groups = groups;
    this.context = context;
    this.server = server;
    this.metricsServer = metricsServer;
    this.confinement = confinement;
    this.watchdog = watchdog;
  }

  /**
   * Starts the gateway with {@code kit}'s pool and reservations: builds and pins the groups, starts
   * every loop, binds, and in {@link PinMode#EXCLUSIVE} confines the rest of the JVM to the
   * housekeeping CPUs (re-swept every second) and, with wait policy AUTO, audits the workers' CPUs
   * (half a second) so that a worker spins only where the audit found its CPU EXCLUSIVE.
   *
   * @throws IllegalStateException if the transport cannot load, the bind fails, or exclusive mode
   *     has no housekeeping CPU
   */
  public static GatewayServer start(GatewayConfig config, AffinityKit kit) {
    return start(config, kit, GatewayEvents.NONE);
  }

  static GatewayServer start(GatewayConfig config, AffinityKit kit, GatewayEvents events) {
    return start(config, kit, events, (c, w) -> CpuAudit.of(kit, c, w));
  }

  /**
   * As {@link #start(GatewayConfig, AffinityKit)}; {@code audit} audits at start (tests fail it).
   */
  static GatewayServer start(
      GatewayConfig config,
      AffinityKit kit,
      GatewayEvents events,
      BiFunction<CpuSet, Duration, CpuAudit> audit) {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(kit, "kit");
    if (config.pin().confines() && kit.pool().housekeeping().isEmpty()) {
      throw new IllegalStateException(
          "pin: "
              + config.pin().cliName()
              + " (expected: housekeeping CPUs for the rest of the JVM; the pool "
              + kit.pool().cpus()
              + " leaves none)");
    }
    ServerGroupsBuilder b =
        PinnedServerGroups.builder(kit)
            .transport(config.transport())
            .businessThreads(config.businessThreads())
            .waitPolicy(config.waitPolicy())
            .spinLimit(config.spinLimit());
    config.workers().ifPresent(b::workers);
    config.nic().ifPresent(n -> b.nic(n, config.nicIrqs()));
    if (config.pin() == PinMode.ISOLATED) { // the default worker group, isolated at runtime
      b.workerGroup(
          kit.group("worker").placements(Placement.DIFFERENT_CORE, Placement.ANY).isolate(true));
    }
    if (config.pin() == PinMode.UNPINNED) { // the same groups, unpinned, reported
      b.workerGroup(kit.group("worker").unpinned("off"))
          .businessGroup(kit.group("business").unpinned("off"))
          .bossGroup(kit.group("boss").unpinned("off"));
    }
    PinnedServerGroups groups = b.build();
    try {
      return bind(config, kit, events, groups, audit);
    } catch (Exception e) { // the bind's BindException too, which Netty rethrows undeclared
      groups.close(); // frees the CPUs the started loops hold
      throw e;
    }
  }

  private static GatewayServer bind(
      GatewayConfig config,
      AffinityKit kit,
      GatewayEvents events,
      PinnedServerGroups groups,
      BiFunction<CpuSet, Duration, CpuAudit> audit) {
    GatewayMetrics metrics = new GatewayMetrics();
    AtomicReference<Optional<CpuAudit>> startAudit = new AtomicReference<>(Optional.empty());
    Optional<Watchdog> dog = watchdog(config, kit, events);
    AffinityMeterBinder.Builder meters = AffinityMeterBinder.builder(kit);
    dog.ifPresent(meters::watchdog); // its counters; the verdicts stay the start audit's
    AffinityMeterBinder kitMeters = meters.audits(startAudit::get).build();
    MetricsText text =
        new MetricsText(metrics, groups::report, config.pin().cliName(), Optional.of(kitMeters));
    Optional<EventExecutorGroup> business = groups.business().map(x -> x);
    GatewayContext g =
        GatewayContext.create(
            config, metrics, MetricsScrapes.onOwnThread(text::render), events, business);
    metrics.pendingFrom(() -> pendingBytes(g.all()));
    startAll(groups.workers());
    groups.business().ifPresent(GatewayServer::startAll);
    ConnectionLimit limit = new ConnectionLimit(config.maxConnections(), metrics);
    Channel server;
    Optional<Channel> metricsServer;
    try {
      server =
          new ServerBootstrap()
              .group(groups.boss(), groups.workers())
              .channel(groups.serverChannel())
              .handler(limit)
              .childOption(ChannelOption.TCP_NODELAY, true)
              .childOption(
                  ChannelOption.WRITE_BUFFER_WATER_MARK,
                  new WriteBufferWaterMark(config.lowWaterMark(), config.highWaterMark()))
              .childHandler(new GatewayInitializer(g))
              .bind(config.host(), config.port())
              .syncUninterruptibly()
              .channel();
      metricsServer = config.metricsAddress().map(a -> bindMetrics(a, groups, g, limit, server));
    } catch (RuntimeException e) { // the caller closes the groups; the renderer is ours
      g.scrapes().close();
      throw e;
    }
    dog.ifPresent(Watchdog::start); // every loop is pinned now
    if (!config.pin().confines()) {
      return new GatewayServer(groups, g, server, metricsServer, Optional.empty(), dog);
    }
    Confinement confined = JvmThreads.of(kit).confineUntilClosed(SWEEP_PERIOD);
    try {
      if (config.waitPolicy() == WaitPolicy.AUTO) { // spin only where the audit proves it safe
        CpuAudit found = audit.apply(pinnedWorkerCpus(groups), AUDIT_WINDOW);
        startAudit.set(Optional.of(found)); // /metrics: affinity_cpu_verdict of the workers' CPUs
        groups.applyAudit(found);
      }
    } catch (RuntimeException e) { // the caller closes the groups; the confinement is ours
      dog.ifPresent(Watchdog::close);
      confined.close();
      server.close();
      metricsServer.ifPresent(Channel::close);
      g.scrapes().close();
      throw e;
    }
    return new GatewayServer(groups, g, server, metricsServer, Optional.of(confined), dog);
  }

  /**
   * Listens for {@code /metrics} alone on {@code address}, on the boss loop (accepts and requests
   * alike: none on the workers); closes {@code main} if it cannot.
   */
  private static Channel bindMetrics(
      InetSocketAddress address,
      PinnedServerGroups groups,
      GatewayContext g,
      ConnectionLimit limit,
      Channel main) {
    try {
      return new ServerBootstrap()
          .group(groups.boss(), groups.boss())
          .channel(groups.serverChannel())
          .handler(limit)
          .childOption(ChannelOption.TCP_NODELAY, true)
          .childHandler(new GatewayInitializer(g, true))
          .bind(address.getHostString(), address.getPort())
          .syncUninterruptibly()
          .channel();
    } catch (RuntimeException e) {
      main.close().syncUninterruptibly();
      throw e;
    }
  }

  /**
   * The watchdog of the pinned loops, not started: none when {@code --watchdog 0s} or unpinned. Its
   * events go to {@code events} and to standard error, one line each.
   */
  private static Optional<Watchdog> watchdog(
      GatewayConfig config, AffinityKit kit, GatewayEvents events) {
    if (config.watchdog().isZero() || config.pin() == PinMode.UNPINNED) {
      return Optional.empty();
    }
    return Optional.of(
        Watchdog.builder(kit)
            .period(config.watchdog())
            .repin(config.repin())
            .listener(
                e -> {
                  events.watchdog(e);
                  System.err.println("gateway: watchdog: " + e);
                })
            .build());
  }

  /**
   * Returns the watchdog of the pinned loops.
   *
   * @return the watchdog; empty when off ({@code --watchdog 0s}) or unpinned
   */
  public Optional<Watchdog> watchdog() {
    return watchdog;
  }

  /** The CPUs the workers are pinned to. */
  private static CpuSet pinnedWorkerCpus(PinnedServerGroups groups) {
    return CpuSet.of(
        groups.workers().assignments().stream()
            .filter(a -> a.status() == LeaseStatus.PINNED)
            .mapToInt(LoopAssignment::cpu)
            .toArray());
  }

  /** Sums what waits in the outbound buffers of {@code channels}. */
  private static long pendingBytes(Iterable<Channel> channels) {
    long sum = 0;
    for (Channel ch : channels) {
      ChannelOutboundBuffer out = ch.unsafe().outboundBuffer();
      sum += out == null ? 0 : out.totalPendingWriteBytes();
    }
    return sum;
  }

  /** Starts every loop now, so that each is pinned and reported before the first client. */
  private static void startAll(EventExecutorGroup group) {
    for (EventExecutor e : group) {
      e.submit(() -> {}).syncUninterruptibly();
    }
  }

  /** Returns the bound port. */
  public int port() {
    return ((InetSocketAddress) server.localAddress()).getPort();
  }

  /** Returns where every loop runs, and the transport. */
  public AssignmentReport report() {
    return groups.report();
  }

  /** Returns the groups the gateway runs on: for tests that read the workers' wait decisions. */
  PinnedServerGroups groups() {
    return groups;
  }

  /** Returns the counters. */
  public GatewayMetrics metrics() {
    return context.metrics();
  }

  /** Returns the runtime isolation of the workers' CPUs ({@link PinMode#ISOLATED} only). */
  public Optional<Isolation> isolation() {
    return groups.isolation().map(Isolation::of);
  }

  /** Returns what {@link PinMode#EXCLUSIVE} did to the JVM's other threads at start. */
  public Optional<ConfineReport> confined() {
    return confinement.map(Confinement::report);
  }

  /**
   * Returns the {@code /metrics} text a scrape would get now: rendered less than a second ago, or
   * now.
   */
  public String metricsText() {
    return context.scrapes().text().join();
  }

  /**
   * Returns the port {@code /metrics} is served on when it has its own ({@code --metrics-address}).
   *
   * @return the bound metrics port; empty when {@code /metrics} is on the main port
   */
  public Optional<Integer> metricsPort() {
    return metricsServer.map(c -> ((InetSocketAddress) c.localAddress()).getPort());
  }

  /** Blocks until {@link #close()} has finished. */
  public void awaitStopped() throws InterruptedException {
    stopped.await();
  }

  private void awaitQuietly() {
    boolean interrupted = false;
    while (stopped.getCount() > 0) {
      try {
        stopped.await();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops gracefully (idempotent; a second caller waits for the first): see the class comment. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      awaitQuietly();
      return;
    }
    try {
      watchdog.ifPresent(Watchdog::close); // before the loops let go of their CPUs
      context.draining().set(true);
      server.close().syncUninterruptibly();
      metricsServer.ifPresent(c -> c.close().syncUninterruptibly());
      for (Channel ch : context.all()) {
        if (context.webSockets().contains(ch)) {
          GatewayContext.goAway(ch, WsHandler.GOING_AWAY, "server shutting down");
        } else {
          ch.close();
        }
      }
      long drainMs = context.config().drainTimeout().toMillis();
      context.all().newCloseFuture().awaitUninterruptibly(drainMs + 1_000);
      context.all().close().awaitUninterruptibly(1_000);
      groups.shutdownGracefully(100, 5_000, TimeUnit.MILLISECONDS).join();
      confinement.ifPresent(Confinement::close); // the rest of the JVM gets its CPUs back
      context.scrapes().close();
    } finally {
      stopped.countDown();
    }
  }
}
