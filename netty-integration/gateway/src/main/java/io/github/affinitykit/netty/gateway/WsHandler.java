package io.github.affinitykit.netty.gateway;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler.HandshakeComplete;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * One WebSocket connection after the handshake: echoes each text or binary message ({@code /ws}) or
 * broadcasts it to the room ({@code /room}), on the channel's loop or, with a business executor, on
 * one executor of it per connection (order kept), and answers pings. Everything sent to the client
 * counts against its outbound limit ({@link WsFlow}): over it, the client is no longer read until
 * it drains. Closes with 1001 when idle or when the server shuts down, with 1009 when a message is
 * too big, with the code a protocol violation calls for (1002, 1007, 1009 from Netty's decoder and
 * validator, 1002 for a close code RFC 6455 does not allow), in each case after the replies to
 * every message already accepted; data frames arriving after that are not accepted. After its close
 * frame the connection reads on (and discards) until the client closes it or the drain timeout
 * ends: closing with the client's data unread would send a reset that can destroy the close frame
 * before the client reads it.
 *
 * <p>Thread safety: one instance per channel; Netty calls it on the channel's loop; the business
 * executor runs {@link #handle} and the close.
 */
final class WsHandler extends ChannelInboundHandlerAdapter {
  /** Going away: idle, or the server shuts down. */
  static final int GOING_AWAY = 1001;

  /** Message too big. */
  static final int TOO_BIG = 1009;

  /** Internal error: the handler failed. */
  static final int INTERNAL_ERROR = 1011;

  private final GatewayContext g;
  private final boolean room;
  private WsFlow flow; // set at the handshake
  private EventExecutor business; // null: handle on the loop
  private boolean open;
  private volatile boolean closing;
  private boolean flushPending;

  WsHandler(GatewayContext g, boolean room) {
    this.g = Objects.requireNonNull(g, "g");
    this.room = room;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    flow = new WsFlow(g, ctx, f -> accept(ctx, f));
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof HandshakeComplete) {
      open = true;
      CloseCounter.install(ctx.pipeline(), g.metrics());
      business = g.business().map(b -> b.next()).orElse(null);
      g.metrics().opened();
      g.webSockets().add(ctx.channel());
      if (room) {
        g.room().join(ctx.channel());
      }
      if (g.draining().get()) {
        goAway(ctx, GOING_AWAY, "server shutting down");
      }
    } else if (evt instanceof IdleStateEvent) {
      goAway(ctx, GOING_AWAY, "idle timeout");
    } else if (evt instanceof GatewayContext.GoAway away) {
      goAway(ctx, away.code(), away.reason());
    } else {
      ctx.fireUserEventTriggered(evt);
    }
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof PingWebSocketFrame ping) {
      if (closing) {
        ping.release(); // no pong after our close frame
      } else {
        flow.ping(ping);
        flushPending = true;
      }
    } else if (msg instanceof TextWebSocketFrame || msg instanceof BinaryWebSocketFrame) {
      WebSocketFrame frame = (WebSocketFrame) msg;
      if (closing) {
        ReferenceCountUtil.release(frame);
        g.metrics().dropped();
      } else {
        flow.data(frame);
      }
    } else {
      ctx.fireChannelRead(msg);
    }
  }

  /** Accepts one message: counts it, then handles it here or hands it to the business executor. */
  private void accept(ChannelHandlerContext ctx, WebSocketFrame frame) {
    int bytes = frame.content().readableBytes();
    g.metrics().received(bytes);
    if (business == null) {
      handle(ctx, frame, bytes, false);
    } else {
      flow.handing(bytes);
      business.execute(
          () -> {
            handle(ctx, frame, bytes, true);
            flow.handled(bytes);
          });
    }
  }

  /** Echoes or broadcasts one accepted message, after the configured work per message. */
  private void handle(ChannelHandlerContext ctx, WebSocketFrame frame, int bytes, boolean flush) {
    work(g.config().workNs());
    if (room) {
      g.room().broadcast(frame);
    } else if (flush) {
      ctx.writeAndFlush(frame).addListener(g.metrics().queued(bytes));
    } else {
      ctx.write(frame).addListener(g.metrics().queued(bytes));
      flushPending = true;
    }
  }

  /** Spends {@code ns} on this thread, spinning: the stand-in for an application's work. */
  static void work(long ns) {
    if (ns <= 0) {
      return;
    }
    long end = System.nanoTime() + ns;
    while (System.nanoTime() < end) {
      Thread.onSpinWait();
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    if (flushPending) {
      flushPending = false;
      ctx.flush();
    }
    ctx.fireChannelReadComplete();
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    if (ctx.channel().isWritable() && !closing) {
      flow.drain();
    }
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (open) {
      open = false;
      g.metrics().closed();
    }
    g.metrics().dropped(flow.discard());
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    Fatal.report(cause);
    if (cause instanceof TooLongFrameException) {
      goAway(ctx, TOO_BIG, "message too big");
    } else if (cause instanceof CorruptedWebSocketFrameException e) {
      // Netty's decoder, its UTF-8 validator or WsProtocolHandler found a violation; the decoder
      // now discards what the client still sends, and the close frame says why.
      goAway(ctx, e.closeStatus().code(), e.closeStatus().reasonText());
    } else if (cause instanceof IOException) {
      ctx.close();
    } else {
      goAway(ctx, INTERNAL_ERROR, "internal error");
    }
  }

  /**
   * Stops accepting messages, then (after the replies to those accepted) sends the close frame,
   * reads on for the client's close reply, and closes anyway after the drain timeout. Messages read
   * but not yet accepted (the client was over its limit) are dropped.
   */
  private void goAway(ChannelHandlerContext ctx, int code, String reason) {
    if (closing) {
      return;
    }
    closing = true;
    g.metrics().dropped(flow.discard());
    g.events().closing(ctx.channel(), code);
    Runnable close =
        () -> {
          Channel ch = ctx.channel();
          ctx.writeAndFlush(new CloseWebSocketFrame(code, reason));
          ch.config().setAutoRead(true);
          long graceMs = Math.max(100, g.config().drainTimeout().toMillis());
          ScheduledFuture<?> force =
              ch.eventLoop().schedule(() -> ch.close(), graceMs, TimeUnit.MILLISECONDS);
          ch.closeFuture().addListener(f -> force.cancel(false));
        };
    if (business == null) {
      flushPending = false;
      close.run();
    } else {
      business.execute(close);
    }
  }
}
