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
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;

/**
 * Routes plain HTTP: {@code /health}, {@code /metrics}, and the WebSocket endpoints {@code /ws}
 * (echo) and {@code /room} (broadcast), whose handshake it hands to Netty's protocol handler (a
 * malformed handshake gets 400 there, and here a {@code Sec-WebSocket-Key} that is not the base64
 * of 16 bytes, RFC 6455 §4.2.1); anything else is 404, a request that does not parse is 400.
 *
 * <p>{@code /metrics} is rendered off the event loops ({@link MetricsScrapes}); while its text is
 * not ready the connection is not read, and requests it pipelined meanwhile wait, so that responses
 * keep their order. With {@code --metrics-address} the router of the main port answers {@code
 * /metrics} with 404 and the metrics port's router answers nothing else.
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
  private final boolean metricsPort;
  private final ArrayDeque<FullHttpRequest> waiting = new ArrayDeque<>();
  private boolean closing;
  private boolean rendering;

  /** The router of the main port ({@code metricsPort} false) or of the metrics port. */
  HttpRouter(GatewayContext g, boolean metricsPort) {
    this.g = Objects.requireNonNull(g, "g");
    this.metricsPort = metricsPort;
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
    RequestDeadline.met(ctx.pipeline());
    if (closing) {
      return; // pipelined after the last response this connection gets
    }
    if (rendering) {
      waiting.add(req.retain()); // answered once the metrics response is out
      return;
    }
    if (!req.decoderResult().isSuccess()) {
      respond(ctx, req, HttpResponseStatus.BAD_REQUEST, "malformed request\n", false);
      return;
    }
    String path = new QueryStringDecoder(req.uri()).path();
    boolean get = HttpMethod.GET.equals(req.method());
    boolean metricsHere = metricsPort || g.config().metricsAddress().isEmpty();
    if (path.equals("/metrics") && metricsHere) {
      metrics(ctx, req, get);
      return;
    }
    switch (metricsPort ? "" : path) {
      case "/health" -> health(ctx, req, get);
      case "/ws", "/room" -> upgrade(ctx, req, path);
      default ->
          respond(ctx, req, HttpResponseStatus.NOT_FOUND, "no such path: " + path + "\n", true);
    }
  }

  /** Answers with the scrape's text: now if fresh, else once rendered, not reading meanwhile. */
  private void metrics(ChannelHandlerContext ctx, FullHttpRequest req, boolean get) {
    if (!get) {
      respond(ctx, req, HttpResponseStatus.METHOD_NOT_ALLOWED, "GET only\n", true);
      return;
    }
    CompletableFuture<String> text = g.scrapes().text();
    if (text.isDone()) {
      respondMetrics(ctx, req, text);
      return;
    }
    rendering = true;
    ctx.channel().config().setAutoRead(false);
    FullHttpRequest held = req.retain();
    text.whenComplete((t, e) -> afterRender(ctx, held, text));
  }

  /** On the render's thread: back to the channel's loop to answer. */
  private void afterRender(
      ChannelHandlerContext ctx, FullHttpRequest held, CompletableFuture<String> text) {
    try {
      ctx.executor()
          .execute(
              () -> {
                try {
                  respondMetrics(ctx, held, text);
                } finally {
                  held.release();
                }
                rendering = false;
                answerWaiting(ctx);
              });
    } catch (RejectedExecutionException e) { // the loop has stopped: nobody to answer
      held.release();
    }
  }

  private void respondMetrics(
      ChannelHandlerContext ctx, FullHttpRequest req, CompletableFuture<String> text) {
    String body;
    try {
      body = text.join();
    } catch (CompletionException | CancellationException e) {
      Throwable why = e.getCause() == null ? e : e.getCause();
      Fatal.report(why);
      respond(ctx, req, HttpResponseStatus.INTERNAL_SERVER_ERROR, "metrics: " + why + "\n", false);
      return;
    }
    respond(ctx, req, HttpResponseStatus.OK, body, true);
  }

  /** Answers what was pipelined while the metrics were rendered, then reads again. */
  private void answerWaiting(ChannelHandlerContext ctx) {
    while (!rendering && !ctx.isRemoved() && !waiting.isEmpty()) {
      FullHttpRequest next = waiting.poll();
      try {
        channelRead0(ctx, next);
      } finally {
        next.release();
      }
    }
    if (!rendering && !closing) {
      ctx.channel().config().setAutoRead(true);
    }
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    for (FullHttpRequest r = waiting.poll(); r != null; r = waiting.poll()) {
      r.release(); // pipelined behind an upgrade, or the connection closed
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
