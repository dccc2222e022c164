package io.github.affinitykit.netty.gateway;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.handler.timeout.IdleStateEvent;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Routes plain HTTP: {@code /health}, {@code /metrics}, and the WebSocket endpoints {@code /ws}
 * (echo) and {@code /room} (broadcast), whose handshake it hands to Netty's protocol handler (a
 * malformed handshake gets 400 there); anything else is 404, a request that does not parse is 400.
 *
 * <p>Thread safety: one instance per channel, called by the channel's loop.
 */
final class HttpRouter extends SimpleChannelInboundHandler<FullHttpRequest> {
  private final GatewayContext g;

  HttpRouter(GatewayContext g) {
    this.g = Objects.requireNonNull(g, "g");
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
    if (!req.decoderResult().isSuccess()) {
      respond(ctx, req, HttpResponseStatus.BAD_REQUEST, "malformed request\n", false);
      return;
    }
    String path = new QueryStringDecoder(req.uri()).path();
    boolean get = HttpMethod.GET.equals(req.method());
    switch (path) {
      case "/health" -> health(ctx, req, get);
      case "/metrics" ->
          respond(
              ctx,
              req,
              get ? HttpResponseStatus.OK : HttpResponseStatus.METHOD_NOT_ALLOWED,
              get ? g.metricsText().render() : "GET only\n",
              true);
      case "/ws", "/room" -> upgrade(ctx, req, path);
      default ->
          respond(ctx, req, HttpResponseStatus.NOT_FOUND, "no such path: " + path + "\n", true);
    }
  }

  private void health(ChannelHandlerContext ctx, FullHttpRequest req, boolean get) {
    if (!get) {
      respond(ctx, req, HttpResponseStatus.METHOD_NOT_ALLOWED, "GET only\n", true);
    } else if (g.draining().get()) {
      respond(ctx, req, HttpResponseStatus.SERVICE_UNAVAILABLE, "draining\n", false);
    } else {
      respond(ctx, req, HttpResponseStatus.OK, "ok\n", true);
    }
  }

  private void upgrade(ChannelHandlerContext ctx, FullHttpRequest req, String path) {
    if (g.draining().get()) {
      respond(ctx, req, HttpResponseStatus.SERVICE_UNAVAILABLE, "draining\n", false);
      return;
    }
    int max = g.config().maxFrameBytes();
    WebSocketServerProtocolConfig cfg =
        WebSocketServerProtocolConfig.newBuilder()
            .websocketPath(path)
            .checkStartsWith(true)
            .maxFramePayloadLength(max)
            .handleCloseFrames(true)
            .dropPongFrames(true)
            .handshakeTimeoutMillis(10_000)
            .forceCloseTimeoutMillis(Math.max(100, g.config().drainTimeout().toMillis()))
            .build();
    ChannelPipeline p = ctx.pipeline();
    p.addAfter(ctx.name(), "ws-protocol", new WebSocketServerProtocolHandler(cfg));
    p.addAfter("ws-protocol", "ws-aggregator", new WebSocketFrameAggregator(max));
    p.addAfter("ws-aggregator", "ws", new WsHandler(g, path.equals("/room")));
    ctx.fireChannelRead(req.retain());
    p.remove(this);
  }

  private void respond(
      ChannelHandlerContext ctx,
      FullHttpRequest req,
      HttpResponseStatus status,
      String body,
      boolean keepAlive) {
    FullHttpResponse res =
        new DefaultFullHttpResponse(
            HttpVersion.HTTP_1_1, status, Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
    String type =
        body.startsWith("# HELP")
            ? "text/plain; version=0.0.4; charset=utf-8"
            : "text/plain; charset=utf-8";
    res.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
    HttpUtil.setContentLength(res, res.content().readableBytes());
    boolean keep = keepAlive && HttpUtil.isKeepAlive(req) && !g.draining().get();
    HttpUtil.setKeepAlive(res, keep);
    g.metrics().httpResponse(status.code());
    if (keep) {
      ctx.writeAndFlush(res);
    } else {
      ctx.writeAndFlush(res).addListener(ChannelFutureListener.CLOSE);
    }
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof IdleStateEvent) {
      ctx.close();
    } else {
      ctx.fireUserEventTriggered(evt);
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    ctx.close();
  }
}
