package io.github.affinitykit.netty.gateway;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Each accepted connection's pipeline: idle detection (no traffic either way), the request read
 * deadline, HTTP/1.1 codec, request aggregation (64 KiB at most: 413 above), then the router (of
 * the main port, or of the metrics port: see {@link HttpRouter}).
 *
 * <p>Thread safety: shared by all connections; {@link #initChannel} runs on each channel's loop.
 */
final class GatewayInitializer extends ChannelInitializer<Channel> {
  private static final int MAX_REQUEST_BYTES = 64 * 1024;

  private final GatewayContext g;
  private final boolean metricsPort;

  /** The main port's pipelines. */
  GatewayInitializer(GatewayContext g) {
    this(g, false);
  }

  /** The main port's pipelines, or with {@code metricsPort} the metrics port's. */
  GatewayInitializer(GatewayContext g, boolean metricsPort) {
    this.g = Objects.requireNonNull(g, "g");
    this.metricsPort = metricsPort;
  }

  @Override
  protected void initChannel(Channel ch) {
    g.all().add(ch);
    long idleMs = g.config().idleTimeout().toMillis();
    ch.pipeline()
        .addLast("idle", new IdleStateHandler(0, 0, idleMs, TimeUnit.MILLISECONDS))
        .addLast("deadline", new RequestDeadline(g))
        .addLast("http", new HttpServerCodec(4096, 8192, 8192))
        .addLast("aggregate", new HttpObjectAggregator(MAX_REQUEST_BYTES))
        .addLast("router", new HttpRouter(g, metricsPort));
  }
}
