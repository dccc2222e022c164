package io.github.affinitykit.netty.gateway;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code --max-connections}: sits on the listening channels, before Netty's acceptor, and closes a
 * connection accepted while the limit is open, before it is registered with a worker loop or given
 * a pipeline (no buffer, no handler, no work on the loops); {@code
 * affinitykit_gateway_connections_refused_total} counts them. Every TCP connection counts (HTTP and
 * WebSocket, both ports), from its accept until it has closed.
 *
 * <p>Thread safety: shared by the listening channels; accepts run on the boss loop, closes on any
 * loop; the count is atomic.
 */
@Sharable
final class ConnectionLimit extends ChannelInboundHandlerAdapter {
  private final int max;
  private final GatewayMetrics metrics;
  private final AtomicInteger open = new AtomicInteger();

  ConnectionLimit(int max, GatewayMetrics metrics) {
    this.max = max;
    this.metrics = metrics;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof Channel child)) {
      ctx.fireChannelRead(msg);
      return;
    }
    if (open.incrementAndGet() > max) {
      open.decrementAndGet();
      metrics.refused();
      child.unsafe().closeForcibly(); // not registered: closes the socket, nothing else to free
      return;
    }
    child.closeFuture().addListener(f -> open.decrementAndGet());
    ctx.fireChannelRead(child);
  }

  /** The connections open now. */
  int open() {
    return open.get();
  }
}
