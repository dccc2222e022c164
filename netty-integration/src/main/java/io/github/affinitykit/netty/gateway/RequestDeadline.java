package io.github.affinitykit.netty.gateway;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
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
 * <p>Sits before the HTTP codec, so that it sees bytes as they arrive.
 *
 * <p>Thread safety: one instance per channel, called by the channel's loop.
 */
final class RequestDeadline extends ChannelInboundHandlerAdapter {
  private final GatewayContext g;
  private ScheduledFuture<?> timer; // null: no request under way

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
    ctx.channel().config().setAutoRead(false);
    ctx.channel().writeAndFlush(res).addListener(ChannelFutureListener.CLOSE);
  }
}
