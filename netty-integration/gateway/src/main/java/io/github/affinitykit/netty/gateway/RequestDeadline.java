package io.github.affinitykit.netty.gateway;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The read deadline of an HTTP request, WebSocket handshakes included: a request must have arrived
 * whole within the request timeout of the connection opening, or of its first byte after the
 * previous request; otherwise the client gets {@code 408 Request Timeout} and the connection is
 * closed. Unlike the idle timeout, which every byte resets, this stops a client that trickles a
 * request a byte at a time. Removed once the connection is a WebSocket.
 *
 * <p>The close lingers: after the 408 the server sends FIN, then reads and discards what the client
 * still sends for up to {@value #LINGER_MS} ms before it closes. Closing with unread input at once
 * would make the kernel answer with a reset, which can destroy the unread 408 in the client's
 * receive queue before it reads it.
 *
 * <p>Sits before the HTTP codec, so that it sees bytes as they arrive.
 *
 * <p>Thread safety: one instance per channel, called by the channel's loop.
 */
final class RequestDeadline extends ChannelInboundHandlerAdapter {
  /** How long an expired connection reads and discards input after its 408, before closing. */
  static final long LINGER_MS = 2_000;

  private final GatewayContext g;
  private ScheduledFuture<?> timer; // null: no request under way
  private boolean expired; // the 408 is out: input is discarded until the close

  RequestDeadline(GatewayContext g) {
    this.g = Objects.requireNonNull(g, "g");
  }

  /** A whole request was read on {@code p}'s connection: its deadline no longer applies. */
  static void met(ChannelPipeline p) {
    RequestDeadline d = p.get(RequestDeadline.class);
    if (d != null) {
      d.cancel();
    }
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    arm(ctx);
    ctx.fireChannelActive();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (expired) {
      ReferenceCountUtil.release(msg);
      return;
    }
    if (timer == null) {
      arm(ctx); // the first byte of the next request
    }
    ctx.fireChannelRead(msg);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    cancel();
    ctx.fireChannelInactive();
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    cancel();
  }

  private void arm(ChannelHandlerContext ctx) {
    long ms = g.config().requestTimeout().toMillis();
    timer = ctx.executor().schedule(() -> expire(ctx), ms, TimeUnit.MILLISECONDS);
  }

  private void cancel() {
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
  }

  private void expire(ChannelHandlerContext ctx) {
    timer = null;
    if (ctx.isRemoved() || !ctx.channel().isActive()) {
      return;
    }
    FullHttpResponse res =
        new DefaultFullHttpResponse(
            HttpVersion.HTTP_1_1,
            HttpResponseStatus.REQUEST_TIMEOUT,
            Unpooled.copiedBuffer("request not complete in time\n", StandardCharsets.UTF_8));
    res.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
    res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    HttpUtil.setContentLength(res, res.content().readableBytes());
    g.metrics().httpResponse(HttpResponseStatus.REQUEST_TIMEOUT.code());
    expired = true;
    Channel ch = ctx.channel();
    ch.config().setAutoRead(true); // drain what the client still sends, so closing sends no reset
    ch.writeAndFlush(res).addListener(f -> lingerThenClose(ch));
  }

  private static void lingerThenClose(Channel ch) {
    if (ch instanceof DuplexChannel d && ch.isActive()) {
      d.shutdownOutput(); // FIN after the 408
    }
    ch.eventLoop().schedule(() -> ch.close(), LINGER_MS, TimeUnit.MILLISECONDS);
  }
}
