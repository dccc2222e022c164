package io.github.affinitykit.netty.gateway;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * One WebSocket connection's outbound budget. Everything the server sends the client (echoes,
 * broadcasts, pongs, the close frame) waits in the channel's outbound buffer, and messages handed
 * to the business executor count as well; above the high water mark the connection is <em>over its
 * limit</em>: reads stop, data frames already read wait here in order, and pings are answered only
 * for the most recent one (RFC 6455 §5.5.3). When the client has drained below the low water mark,
 * the waiting pong and messages go out, then reads resume. What the server holds for a client is
 * therefore at most the high water mark plus one message, one pong, and the rest of the read in
 * progress when the limit was crossed.
 *
 * <p>Thread safety: every method but {@link #handled(int)} runs on the channel's loop; {@link
 * #handled(int)} runs on the business executor.
 */
final class WsFlow {
  private final GatewayContext g;
  private final ChannelHandlerContext ctx;
  private final Channel ch;
  private final Consumer<WebSocketFrame> accept;
  private final AtomicLong inflight = new AtomicLong();
  private final ArrayDeque<WebSocketFrame> waiting = new ArrayDeque<>();
  private ByteBuf pong; // payload of the latest ping not yet answered, or null

  /**
   * Creates the budget of one connection.
   *
   * @param ctx the connection's WebSocket handler
   * @param accept handles one data frame (echo or broadcast), on the loop
   */
  WsFlow(GatewayContext g, ChannelHandlerContext ctx, Consumer<WebSocketFrame> accept) {
    this.g = Objects.requireNonNull(g, "g");
    this.ctx = Objects.requireNonNull(ctx, "ctx");
    this.ch = ctx.channel();
    this.accept = Objects.requireNonNull(accept, "accept");
  }

  /** Whether the client is over its limit: not writable, or too much on the business executor. */
  boolean over() {
    return !ch.isWritable() || inflight.get() > g.config().highWaterMark();
  }

  /** Returns the bytes the server holds for this client now: outbound buffer plus business. */
  long pending() {
    ChannelOutboundBuffer out = ch.unsafe().outboundBuffer();
    return (out == null ? 0 : out.totalPendingWriteBytes()) + inflight.get();
  }

  /** A data frame arrived: handled now, or kept in order until the client drains. */
  void data(WebSocketFrame frame) {
    if (over() || !waiting.isEmpty()) {
      waiting.add(frame);
      pause();
    } else {
      accept.accept(frame);
      pauseIfOver();
    }
  }

  /** A ping arrived: answered now, or (over the limit) remembered as the only pong owed. */
  void ping(PingWebSocketFrame ping) {
    if (over() || pong != null) {
      if (pong != null) {
        pong.release();
      }
      pong = ping.content(); // the frame's reference moves here
      g.metrics().pingCoalesced();
      pause();
      return;
    }
    ctx.write(new PongWebSocketFrame(ping.content()));
    g.metrics().pongSent();
    pauseIfOver();
  }

  /** Counts {@code bytes} handed to the business executor. */
  void handing(int bytes) {
    inflight.addAndGet(bytes);
  }

  /** The business executor handled {@code bytes}; resumes the client on its loop if it waits. */
  void handled(int bytes) {
    if (inflight.addAndGet(-bytes) < g.config().lowWaterMark() && !ch.config().isAutoRead()) {
      ch.eventLoop().execute(this::drain);
    }
  }

  /**
   * Sends what waits while the client is under its limit, then reads it again once nothing waits
   * and it is below the low water mark. On the loop.
   */
  void drain() {
    if (ctx.isRemoved() || !ch.isActive()) {
      return;
    }
    boolean wrote = false;
    while (!over()) {
      if (pong != null) {
        ctx.write(new PongWebSocketFrame(pong));
        pong = null;
        g.metrics().pongSent();
      } else if (!waiting.isEmpty()) {
        accept.accept(waiting.poll());
      } else {
        break;
      }
      wrote = true;
    }
    if (wrote) {
      ctx.flush();
    }
    if (pong == null
        && waiting.isEmpty()
        && ch.isWritable()
        && inflight.get() < g.config().lowWaterMark()
        && !ch.config().isAutoRead()) {
      ch.config().setAutoRead(true);
      g.events().readsResumed(ch);
    }
  }

  /** Stops reading the client if it is over its limit. */
  void pauseIfOver() {
    if (over()) {
      pause();
    }
  }

  private void pause() {
    long pending = pending();
    g.metrics().pending(pending);
    if (ch.config().isAutoRead()) {
      ch.config().setAutoRead(false);
      g.metrics().paused();
      g.events().readsPaused(ch, pending);
    }
    if (!over()) { // the business executor drained meanwhile: do not wait for a wake-up
      ch.eventLoop().execute(this::drain);
    }
  }

  /** Drops what waits (the connection is closing); returns how many data frames were dropped. */
  int discard() {
    if (pong != null) {
      pong.release();
      pong = null;
    }
    int n = waiting.size();
    waiting.forEach(WebSocketFrame::release);
    waiting.clear();
    return n;
  }
}
