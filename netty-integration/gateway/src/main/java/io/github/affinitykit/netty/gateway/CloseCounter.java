package io.github.affinitykit.netty.gateway;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrameEncoder;
import java.util.Objects;

/**
 * Counts the close frames actually written to a client, by status code, whoever wrote them: the
 * gateway (1001, 1008, 1009, 1011), Netty's decoder and UTF-8 validator (1002, 1007, 1009), or
 * Netty's echo of the client's own close. A close frame whose write fails (the connection was gone
 * first) is not counted. A frame without a status code counts as 1005 ("no status").
 *
 * <p>Sits right after the WebSocket frame encoder, so that every writer's frames pass it.
 *
 * <p>Thread safety: one instance per channel, called by the channel's loop.
 */
final class CloseCounter extends ChannelOutboundHandlerAdapter {
  /** The code counted for a close frame that carries none (RFC 6455 §7.4.1). */
  static final int NO_STATUS = 1005;

  private final GatewayMetrics metrics;

  private CloseCounter(GatewayMetrics metrics) {
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  /** Adds a counter after the WebSocket encoder of {@code p}, once; nothing if there is none. */
  static void install(ChannelPipeline p, GatewayMetrics metrics) {
    ChannelHandlerContext encoder = p.context(WebSocketFrameEncoder.class);
    if (encoder != null && p.get(CloseCounter.class) == null) {
      p.addAfter(encoder.name(), "ws-close-counter", new CloseCounter(metrics));
    }
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    if (msg instanceof CloseWebSocketFrame close) {
      int code = close.statusCode() < 0 ? NO_STATUS : close.statusCode();
      ChannelPromise p = promise.unvoid();
      p.addListener(
          f -> {
            if (f.isSuccess()) {
              metrics.closeSent(code);
            }
          });
      ctx.write(msg, p);
    } else {
      ctx.write(msg, promise);
    }
  }
}
