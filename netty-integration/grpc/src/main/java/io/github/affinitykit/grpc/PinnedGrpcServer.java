package io.github.affinitykit.grpc;

import io.github.affinitykit.netty.PinnedServerGroups;
import io.grpc.netty.NettyServerBuilder;
import java.util.Objects;

/**
 * Gives gRPC-java's {@link NettyServerBuilder} the pinned event loops of a {@link
 * PinnedServerGroups}: its boss group, its worker group and its transport's server channel class,
 * the three that NettyServerBuilder takes together or not at all, so that the channel always
 * matches the groups' transport (io_uring, epoll or NIO). A business executor, when the groups have
 * one, becomes the executor the server runs its calls on; otherwise gRPC keeps its own (or the one
 * the caller sets after this, such as {@code directExecutor()}, which runs calls on the worker
 * loops).
 *
 * <pre>{@code
 * try (PinnedServerGroups groups = PinnedServerGroups.builder(kit).workers(2).build()) {
 *   Server server = PinnedGrpcServer.configure(NettyServerBuilder.forPort(8443), groups)
 *       .addService(service).build().start();
 *   ...
 *   server.shutdown().awaitTermination(5, TimeUnit.SECONDS); // before the groups close
 * }
 * }</pre>
 *
 * <p>gRPC does not shut down groups it was given: close the groups after the server has terminated,
 * which frees their CPUs.
 *
 * <p>Thread safety: stateless; configure a builder on the thread that builds it.
 */
public final class PinnedGrpcServer {
  private PinnedGrpcServer() {}

  /**
   * Sets {@code builder}'s boss and worker event loop groups and channel type to {@code groups}',
   * and its executor to their business executor when they have one.
   *
   * @param builder the server's builder; its boss, worker, channel type and (with a business
   *     executor) executor settings are replaced; not null
   * @param groups the pinned groups the server runs on, closed by the caller after the server has
   *     terminated; not null
   * @return {@code builder}, for chaining
   */
  public static NettyServerBuilder configure(
      NettyServerBuilder builder, PinnedServerGroups groups) {
    Objects.requireNonNull(builder, "builder");
    Objects.requireNonNull(groups, "groups");
    builder
        .bossEventLoopGroup(groups.boss())
        .workerEventLoopGroup(groups.workers())
        .channelType(groups.serverChannel());
    groups.business().ifPresent(builder::executor);
    return builder;
  }
}
