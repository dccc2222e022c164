package io.github.affinitykit.netty;

import io.github.affinitykit.core.AffinityKit;
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

  PinnedServerGroups(
      TransportChoice transport,
      PinnedIoEventLoopGroup boss,
      PinnedIoEventLoopGroup workers,
      Optional<PinnedEventExecutorGroup> business) {
    this.transport = Objects.requireNonNull(transport, "transport");
    this.boss = Objects.requireNonNull(boss, "boss");
    this.workers = Objects.requireNonNull(workers, "workers");
    this.business = Objects.requireNonNull(business, "business");
  }

  /**
   * Returns a builder on {@code kit}: transport AUTO, workers from its pool, no business executor.
   */
  public static ServerGroupsBuilder builder(AffinityKit kit) {
    return new ServerGroupsBuilder(kit);
  }

  /** Returns the transport in use, and why. */
  public TransportChoice transport() {
    return transport;
  }

  /** Returns the server channel class of the transport, for {@code ServerBootstrap.channel}. */
  public Class<? extends ServerSocketChannel> serverChannel() {
    return transport.transport().serverChannel();
  }

  /** Returns the boss group (accepts connections): one loop. */
  public PinnedIoEventLoopGroup boss() {
    return boss;
  }

  /** Returns the worker group (channel I/O). */
  public PinnedIoEventLoopGroup workers() {
    return workers;
  }

  /** Returns the business executor group, if one was asked for. */
  public Optional<PinnedEventExecutorGroup> business() {
    return business;
  }

  /** Returns where every loop runs now: boss, workers, then business executors. */
  public PlacementReport report() {
    List<LoopAssignment> loops = new ArrayList<>(boss.assignments());
    loops.addAll(workers.assignments());
    business.ifPresent(b -> loops.addAll(b.assignments()));
    return new PlacementReport(transport, loops);
  }

  /**
   * Shuts every group down gracefully (Netty's quiet period and timeout); the returned future
   * completes when all have terminated and their CPUs are free.
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
