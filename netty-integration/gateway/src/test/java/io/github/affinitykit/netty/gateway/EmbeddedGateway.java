package io.github.affinitykit.netty.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.netty.AssignmentReport;
import io.github.affinitykit.netty.SpinLimit;
import io.github.affinitykit.netty.Transport;
import io.github.affinitykit.netty.TransportChoice;
import io.github.affinitykit.netty.WaitPolicy;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.util.ReferenceCountUtil;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One gateway connection without a socket: an {@link EmbeddedChannel} set up by the gateway's own
 * {@link GatewayInitializer} (idle handler, HTTP codec, aggregator, router, and after an upgrade
 * Netty's WebSocket protocol handler, the frame aggregator and {@link WsHandler}), with the
 * server's water marks, 1 KiB frames and no business executor, so that everything runs on the
 * calling thread. Counts the bytes it sends.
 *
 * <p>Thread safety: not thread-safe; one test thread.
 */
final class EmbeddedGateway implements AutoCloseable {
  /** The largest WebSocket message: small, so that fuzz inputs reach the 1009 close. */
  static final int MAX_FRAME_BYTES = 1024;

  static final GatewayConfig CONFIG =
      new GatewayConfig(
          "127.0.0.1",
          0,
          Transport.NIO,
          PinMode.UNPINNED,
          OptionalInt.of(1),
          0,
          MAX_FRAME_BYTES,
          Duration.ofSeconds(60),
          32 * 1024,
          64 * 1024,
          Duration.ofMillis(100),
          Duration.ofSeconds(10),
          WaitPolicy.BLOCK,
          SpinLimit.DEFAULT,
          0,
          java.util.Optional.empty(),
          io.github.affinitykit.hostreport.IrqSharing.AVOID,
          Duration.ZERO,
          io.github.affinitykit.watchdog.RepinPolicy.REPORT,
          100,
          java.util.Optional.empty());

  private static final byte[] SWITCHING =
      "HTTP/1.1 101 ".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  private static GatewayContext shared;

  private final EmbeddedChannel channel;
  private final DeferredClose deferredClose = new DeferredClose();
  private long out;
  private boolean upgraded;

  /** A connection to this JVM's embedded gateway (one context: metrics, room, channel groups). */
  EmbeddedGateway() {
    channel = new EmbeddedChannel();
    channel
        .config()
        .setWriteBufferWaterMark(
            new WriteBufferWaterMark(CONFIG.lowWaterMark(), CONFIG.highWaterMark()));
    channel.pipeline().addFirst(deferredClose).addLast(new GatewayInitializer(context()));
  }

  private static synchronized GatewayContext context() {
    if (shared == null) {
      shared = context(CONFIG, new GatewayMetrics());
    }
    return shared;
  }

  /**
   * A gateway context for handlers under test on an {@link EmbeddedChannel}: {@code config} and
   * {@code metrics}, no event loops (the placement report is an empty NIO one), no events; {@code
   * /metrics} rendered on the calling thread, each scrape afresh.
   */
  static GatewayContext context(GatewayConfig config, GatewayMetrics metrics) {
    AssignmentReport report =
        new AssignmentReport(
            new TransportChoice(Transport.NIO, Transport.NIO, "embedded"), List.of());
    MetricsText text = new MetricsText(metrics, () -> report, config.pin().cliName());
    long[] clock = {0};
    MetricsScrapes scrapes =
        MetricsScrapes.on(
            Runnable::run, text::render, () -> clock[0] += MetricsScrapes.FRESH.toNanos());
    return GatewayContext.create(config, metrics, scrapes, GatewayEvents.NONE, Optional.empty());
  }

  /** Feeds {@code bytes} in chunks of {@code chunk}, then runs due tasks; returns the reply. */
  byte[] feed(byte[] bytes, int chunk) {
    for (int i = 0; i < bytes.length && channel.isOpen(); i += chunk) {
      int n = Math.min(chunk, bytes.length - i);
      channel.writeInbound(Unpooled.wrappedBuffer(bytes, i, n));
      settle();
    }
    settle();
    return drain();
  }

  /** Bytes the gateway wrote so far. */
  long outbound() {
    return out;
  }

  /**
   * Asserts that no exception reached the end of the pipeline and that the connection is either
   * closed or still served by the router or the WebSocket handler.
   */
  void assertClosedOrHealthy() {
    channel.checkException();
    if (channel.isOpen()) {
      assertThat(channel.isActive()).as("open but inactive").isTrue();
      assertThat(channel.pipeline().get("router") != null || channel.pipeline().get("ws") != null)
          .as("open connection without a router or WebSocket handler: %s", channel.pipeline())
          .isTrue();
    }
  }

  private byte[] drain() {
    ByteBuf all = Unpooled.buffer();
    try {
      for (Object o = channel.readOutbound(); o != null; o = channel.readOutbound()) {
        try {
          if (o instanceof ByteBuf b) {
            upgraded |= startsWith(b, SWITCHING); // the head of the 101 response
            all.writeBytes(b);
          } else {
            assertUnencodedCloseBeforeUpgrade(o);
          }
        } finally {
          ReferenceCountUtil.release(o);
        }
      }
      out += all.readableBytes();
      byte[] bytes = new byte[all.readableBytes()];
      all.readBytes(bytes);
      return bytes;
    } finally {
      all.release();
    }
  }

  /**
   * Netty's {@code WebSocketServerProtocolHandler} turns a {@code close()} into a close frame
   * (1000, its {@code sendCloseFrame} default) even when the handshake failed, so a rejected
   * upgrade writes an unencoded {@code CloseWebSocketFrame} after the 400; a socket channel fails
   * that write ("unsupported message type") and sends nothing. Anything else unencoded is a bug.
   */
  private void assertUnencodedCloseBeforeUpgrade(Object o) {
    assertThat(o)
        .as("outbound message that is not bytes (upgraded: %s)", upgraded)
        .isInstanceOf(CloseWebSocketFrame.class);
    assertThat(upgraded).as("unencoded %s after the 101", o).isFalse();
  }

  private static boolean startsWith(ByteBuf b, byte[] prefix) {
    if (b.readableBytes() < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (b.getByte(b.readerIndex() + i) != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  /** Runs due tasks, then the closes the gateway asked for meanwhile. */
  private void settle() {
    channel.runPendingTasks();
    deferredClose.run();
  }

  /** Closes the connection as a peer reset would, runs the close tasks, releases leftovers. */
  @Override
  public void close() {
    channel.close();
    settle();
    channel.finishAndReleaseAll();
    channel.checkException();
  }

  /**
   * Holds {@code close()} until the read that asked for it has returned, failing every write
   * meanwhile. A socket channel closes at once (later writes fail) but tears its pipeline down
   * later (its event loop runs the deregistration after the current task); {@link
   * EmbeddedChannel#close()} would tear it down in the middle of the read, so a handler still at
   * work in it would find itself removed, which cannot happen on a socket.
   */
  private static final class DeferredClose extends ChannelOutboundHandlerAdapter {
    private final List<ChannelPromise> pending = new ArrayList<>();
    private ChannelHandlerContext ctx;

    @Override
    public void close(ChannelHandlerContext context, ChannelPromise promise) {
      ctx = context;
      pending.add(promise);
    }

    @Override
    public void write(ChannelHandlerContext context, Object msg, ChannelPromise promise) {
      if (pending.isEmpty()) {
        context.write(msg, promise);
      } else {
        ReferenceCountUtil.release(msg);
        promise.tryFailure(new ClosedChannelException());
      }
    }

    void run() {
      List<ChannelPromise> now = new ArrayList<>(pending);
      pending.clear();
      now.forEach(p -> ctx.close(p));
    }
  }
}
