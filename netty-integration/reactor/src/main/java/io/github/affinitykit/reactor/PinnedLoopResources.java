package io.github.affinitykit.reactor;

import io.github.affinitykit.netty.AssignmentReport;
import io.github.affinitykit.netty.PinnedServerGroups;
import io.github.affinitykit.netty.Transport;
import io.github.affinitykit.watchdog.Watchdog;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ReflectiveChannelFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.EventExecutorGroup;
import io.netty.util.concurrent.Future;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import reactor.core.publisher.Mono;
import reactor.netty.resources.LoopResources;

/**
 * A Reactor Netty {@link LoopResources} whose loops are a {@link PinnedServerGroups}' pinned boss
 * and workers: {@code HttpServer.create().runOn(loops)} and {@code TcpServer.create().runOn(loops)}
 * accept on the boss and serve on the workers, each loop on its planned CPU by the groups' protocol
 * (placement, run-out, the wait rule, the report), and an optional {@link Watchdog} that checks
 * them.
 *
 * <pre>{@code
 * PinnedLoopResources loops =
 *     PinnedLoopResources.of(PinnedServerGroups.builder(kit).workers(2).build());
 * DisposableServer server = HttpServer.create().runOn(loops).handle(...).bindNow();
 * System.out.println(loops.report());
 * server.disposeNow();
 * loops.close(); // stops the loops, then frees their CPUs
 * }</pre>
 *
 * <p>The transport is the groups' ({@link PinnedServerGroups#transport()}: io_uring, epoll or NIO,
 * chosen when they were built), and this class answers for its channel types itself, as Reactor
 * Netty's own detection cannot be asked for a group it did not make: {@code useNative} cannot
 * change it (build the groups with {@code transport(Transport.NIO)} for NIO). {@link #onClient}
 * answers the workers too, as Reactor's default resources do: a client on these resources shares
 * the server's pinned loops. For a group that is not the groups' own, the channel methods fall back
 * to Reactor Netty's default detection.
 *
 * <p>Thread safety: safe for concurrent use; every method may be called from any thread, and the
 * disposal only once takes effect (later calls return the same completion).
 */
public final class PinnedLoopResources implements LoopResources, AutoCloseable {
  private final PinnedServerGroups groups;
  private final Optional<Watchdog> watchdog;
  private final AtomicBoolean disposing = new AtomicBoolean();
  private final Mono<Void> disposed;
  private volatile Duration quiet = Duration.ofSeconds(DEFAULT_SHUTDOWN_QUIET_PERIOD);
  private volatile Duration timeout = Duration.ofSeconds(DEFAULT_SHUTDOWN_TIMEOUT);

  private PinnedLoopResources(PinnedServerGroups groups, Optional<Watchdog> watchdog) {
    this.groups = Objects.requireNonNull(groups, "groups");
    this.watchdog = watchdog;
    this.disposed = Mono.defer(this::shutdown).cache();
  }

  /**
   * Returns resources over {@code groups}, which they own from now on: disposing them shuts the
   * groups down and frees their CPUs.
   *
   * @param groups pinned server groups, not yet shut down; not null
   * @return resources whose server loops are {@code groups}' boss and workers
   */
  public static PinnedLoopResources of(PinnedServerGroups groups) {
    return new PinnedLoopResources(groups, Optional.empty());
  }

  /**
   * Returns resources over {@code groups} checked by {@code watchdog}, both owned from now on: the
   * watchdog is started here (unless it runs already) and closed first on disposal.
   *
   * @param groups pinned server groups, not yet shut down; not null
   * @param watchdog a watchdog of the kit the groups were built on; not null
   * @return resources whose server loops are {@code groups}' boss and workers
   * @throws IllegalStateException if the watchdog was closed
   */
  public static PinnedLoopResources of(PinnedServerGroups groups, Watchdog watchdog) {
    Objects.requireNonNull(watchdog, "watchdog");
    if (!watchdog.isRunning()) {
      watchdog.start();
    }
    return new PinnedLoopResources(groups, Optional.of(watchdog));
  }

  /**
   * Returns the groups the loops are, for their transport, {@link PinnedServerGroups#waits()} and
   * {@link PinnedServerGroups#applyAudit}.
   *
   * @return the groups, the same on every call
   */
  public PinnedServerGroups groups() {
    return groups;
  }

  /**
   * Returns the watchdog that checks the loops.
   *
   * @return the watchdog given to {@link #of(PinnedServerGroups, Watchdog)}; empty otherwise
   */
  public Optional<Watchdog> watchdog() {
    return watchdog;
  }

  /**
   * Returns the transport and where every loop runs now, and how the workers wait: {@link
   * PinnedServerGroups#report()}.
   *
   * @return a new snapshot on each call
   */
  public AssignmentReport report() {
    return groups.report();
  }

  /**
   * Starts every loop of the boss and the workers now, rather than when the first channel registers
   * on it, and waits until each runs: each is then pinned (or has failed to be) and {@link
   * #report()} names its thread.
   *
   * @return this
   * @throws IllegalStateException if a loop did not start within 20 s, or the groups were shut down
   */
  public PinnedLoopResources start() {
    for (EventExecutorGroup group : List.of(groups.boss(), groups.workers())) {
      for (EventExecutor loop : group) {
        Future<?> ran = loop.submit(() -> {});
        if (!ran.awaitUninterruptibly(20, TimeUnit.SECONDS) || !ran.isSuccess()) {
          throw new IllegalStateException(
              "loop: " + loop + " (expected: running within 20 s; " + ran.cause() + ")");
        }
      }
    }
    return this;
  }

  /** Returns the boss group: the loop that accepts, whatever {@code useNative} says. */
  @Override
  public EventLoopGroup onServerSelect(boolean useNative) {
    return groups.boss();
  }

  /**
   * Returns the worker group: the loops that serve connections, whatever {@code useNative} says.
   */
  @Override
  public EventLoopGroup onServer(boolean useNative) {
    return groups.workers();
  }

  /** Returns the worker group, as Reactor's default resources share theirs with clients. */
  @Override
  public EventLoopGroup onClient(boolean useNative) {
    return groups.workers();
  }

  /**
   * Returns a new channel of {@code channelType} for the groups' transport when {@code group} is
   * one of the groups; otherwise Reactor Netty's default choice.
   *
   * @throws IllegalArgumentException for a type other than a socket, server socket or datagram
   *     channel on the groups' loops
   */
  @Override
  public <C extends Channel> C onChannel(Class<C> channelType, EventLoopGroup group) {
    return new ReflectiveChannelFactory<>(onChannelClass(channelType, group)).newChannel();
  }

  /**
   * Returns the class of {@code channelType} for the groups' transport when {@code group} is one of
   * the groups; otherwise Reactor Netty's default choice.
   *
   * @throws IllegalArgumentException for a type other than a socket, server socket or datagram
   *     channel on the groups' loops
   */
  @Override
  public <C extends Channel> Class<? extends C> onChannelClass(
      Class<C> channelType, EventLoopGroup group) {
    Objects.requireNonNull(channelType, "channelType");
    if (group != groups.boss() && group != groups.workers()) {
      return LoopResources.super.onChannelClass(channelType, group);
    }
    return TransportChannels.classOf(transport(), channelType);
  }

  private Transport transport() {
    return groups.transport().transport();
  }

  /**
   * Stops the watchdog, then shuts the groups down with this quiet period and timeout, and frees
   * their CPUs; the first call decides them, later ones return the same completion.
   */
  @Override
  public Mono<Void> disposeLater(Duration quietPeriod, Duration timeout) {
    Objects.requireNonNull(quietPeriod, "quietPeriod");
    Objects.requireNonNull(timeout, "timeout");
    if (disposing.compareAndSet(false, true)) {
      this.quiet = quietPeriod;
      this.timeout = timeout;
    }
    return disposed;
  }

  private Mono<Void> shutdown() {
    watchdog.ifPresent(Watchdog::close);
    return Mono.fromFuture(
        groups.shutdownGracefully(quiet.toMillis(), timeout.toMillis(), TimeUnit.MILLISECONDS));
  }

  /**
   * Disposes with a 100 ms quiet period (5 s at most, as {@link PinnedServerGroups#close()}) and
   * waits until every loop has terminated and every CPU is free.
   */
  @Override
  public void close() {
    disposeLater(Duration.ofMillis(100), Duration.ofSeconds(5)).block();
  }

  /** Returns whether every loop of the groups has shut down. */
  @Override
  public boolean isDisposed() {
    return groups.boss().isTerminated() && groups.workers().isTerminated();
  }

  /** Returns the transport and every loop, one line each. */
  @Override
  public String toString() {
    return "PinnedLoopResources " + report();
  }
}
