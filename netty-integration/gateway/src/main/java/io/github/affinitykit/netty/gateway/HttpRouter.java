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
import io.netty.handler.timeout.IdleStateEvent;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;

/**
 * Routes plain HTTP: {@code /health}, {@code /metrics}, and the WebSocket endpoints {@code /ws}
 * (echo) and {@code /room} (broadcast), whose handshake it hands to Netty's protocol handler (a
 * malformed handshake gets 400 there, and here a {@code Sec-WebSocket-Key} that is not the base64
 * of 16 bytes, RFC 6455 §4.2.1); anything else is 404, a request that does not parse is 400.
 *
 * <p>A client that pipelines requests without reading the responses is not served beyond the
 * connection's high water mark: the response that finds the connection over it says {@code
 * Connection: close}, and requests after it are ignored.
 *
 * <p>Thread safety: one instance per channel, called by the channel's loop.
 */
final class HttpRouter extends SimpleChannelInboundHandler<FullHttpRequest> {
  private static final int WEBSOCKET_KEY_BYTES = 16;

  private final GatewayContext g;
  private boolean closing;

  HttpRouter(GatewayContext g) {
    this.g = Objects.requireNonNull(g, "g");
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
    RequestDeadline.met(ctx.pipeline());
    if (closing) {
      return; // pipelined after the last response this connection gets
    }
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
    String key = req.headers().get(HttpHeaderNames.SEC_WEBSOCKET_KEY);
    if (key != null && !isWebSocketKey(key)) {
      respond(
          ctx,
          req,
          HttpResponseStatus.BAD_REQUEST,
          "Sec-WebSocket-Key: " + key + " (expected: base64 of 16 bytes)\n",
          false);
      return;
    }
    int max = g.config().maxFrameBytes();
    WebSocketServerProtocolConfig cfg =
        WebSocketServerProtocolConfig.newBuilder()
            .websocketPath(path)
            .checkStartsWith(true)
            .maxFramePayloadLength(max)
            .closeOnProtocolViolation(false) // WsHandler sends the close frame, then reads on
            .handleCloseFrames(true)
            .dropPongFrames(true)
            .handshakeTimeoutMillis(10_000)
            .forceCloseTimeoutMillis(Math.max(100, g.config().drainTimeout().toMillis()))
            .build();
    ChannelPipeline p = ctx.pipeline();
    p.addAfter(ctx.name(), "ws-protocol", new WsProtocolHandler(cfg));
    p.addAfter("ws-protocol", "ws-aggregator", new WebSocketFrameAggregator(max));
    p.addAfter("ws-aggregator", "ws", new WsHandler(g, path.equals("/room")));
    p.remove(RequestDeadline.class);
    ctx.fireChannelRead(req.retain());
    p.remove(this);
  }

  /** RFC 6455 §4.2.1: the key is a base64-encoded 16-byte value. */
  static boolean isWebSocketKey(String key) {
    try {
      return Base64.getDecoder().decode(key).length == WEBSOCKET_KEY_BYTES;
    } catch (IllegalArgumentException e) {
      return false;
    }
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
    boolean keep =
        keepAlive
            && HttpUtil.isKeepAlive(req)
            && !g.draining().get()
            && ctx.channel().isWritable(); // else: responses pile up unread
    HttpUtil.setKeepAlive(res, keep);
    g.metrics().httpResponse(status.code());
    if (keep) {
      ctx.writeAndFlush(res);
    } else {
      closing = true;
      ctx.channel().config().setAutoRead(false);
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
    Fatal.report(cause);
    ctx.close();
  }
}
