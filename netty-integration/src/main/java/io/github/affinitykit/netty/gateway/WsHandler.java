package io.github.affinitykit.netty.gateway;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
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
import java.util.concurrent.atomic.AtomicLong;

/**
 * One WebSocket connection after the handshake: echoes each text or binary message ({@code /ws}) or
 * broadcasts it to the room ({@code /room}), on the channel's loop or, with a business executor, on
 * one executor of it per connection (order kept). A client whose replies pile up (pending writes,
 * or messages not yet handled by the business executor, above the high water mark) is no longer
 * read until they drain below the low one. Closes with 1001 when idle or when the server shuts
 * down, with 1009 when a message is too big, in each case after the replies to every message
 * already accepted; data frames arriving after that are not accepted.
 *
 * <p>Thread safety: one instance per channel; Netty calls it on the channel's loop; the business
 * executor runs {@link #handle} and the close.
 */
final class WsHandler extends ChannelInboundHandlerAdapter {
  /** Going away: idle, or the server shuts down. */
  static final int GOING_AWAY = 1001;

  /** Message too big. */
  static final int TOO_BIG = 1009;

  private final GatewayContext g;
  private final boolean room;
  private final AtomicLong inflight = new AtomicLong();
  private EventExecutor business; // null: handle on the loop
  private boolean open;
  private volatile boolean closing;
  private boolean flushPending;

  WsHandler(GatewayContext g, boolean room) {
    this.g = Objects.requireNonNull(g, "g");
    this.room = room;
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof HandshakeComplete) {
      open = true;
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
    if (!(msg instanceof TextWebSocketFrame || msg instanceof BinaryWebSocketFrame)) {
      ctx.fireChannelRead(msg);
      return;
    }
    WebSocketFrame frame = (WebSocketFrame) msg;
    if (closing) {
      ReferenceCountUtil.release(frame);
      g.metrics().dropped();
      return;
    }
    int bytes = frame.content().readableBytes();
    g.metrics().received(bytes);
    if (business == null) {
      handle(ctx, frame, bytes, false);
    } else {
      inflight.addAndGet(bytes);
      business.execute(
          () -> {
            handle(ctx, frame, bytes, true);
            inflight.addAndGet(-bytes);
            maybeResume(ctx.channel());
          });
    }
    Channel ch = ctx.channel();
    long pending = ch.bytesBeforeWritable() + inflight.get();
    if ((!ch.isWritable() || inflight.get() > g.config().highWaterMark())
        && ch.config().isAutoRead()) {
      ch.config().setAutoRead(false);
      g.metrics().paused();
      g.metrics().pending(pending + g.config().lowWaterMark());
      g.events().readsPaused(ch, pending + g.config().lowWaterMark());
    }
  }

  /** Echoes or broadcasts one accepted message. */
  private void handle(ChannelHandlerContext ctx, WebSocketFrame frame, int bytes, boolean flush) {
    if (room) {
      g.room().broadcast(frame);
    } else if (flush) {
      ctx.writeAndFlush(frame).addListener(g.metrics().queued(bytes));
    } else {
      ctx.write(frame).addListener(g.metrics().queued(bytes));
      flushPending = true;
    }
  }

  private void maybeResume(Channel ch) {
    if (ch.isWritable()
        && inflight.get() < g.config().lowWaterMark()
        && !ch.config().isAutoRead()
        && !closing) {
      ch.config().setAutoRead(true);
      g.events().readsResumed(ch);
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
    maybeResume(ctx.channel());
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (open) {
      open = false;
      g.metrics().closed();
    }
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (cause instanceof TooLongFrameException) {
      goAway(ctx, TOO_BIG, "message too big");
    } else if (cause instanceof CorruptedWebSocketFrameException c) {
      g.metrics().closeSent(c.closeStatus().code()); // Netty's decoder sent it and closes
    } else if (cause instanceof IOException) {
      ctx.close();
    } else {
      goAway(ctx, 1011, "internal error");
    }
  }

  /**
   * Stops accepting messages, then (after the replies to those accepted) sends the close frame,
   * reads on for the client's close reply, and closes anyway after the drain timeout.
   */
  private void goAway(ChannelHandlerContext ctx, int code, String reason) {
    if (closing) {
      return;
    }
    closing = true;
    g.metrics().closeSent(code);
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
