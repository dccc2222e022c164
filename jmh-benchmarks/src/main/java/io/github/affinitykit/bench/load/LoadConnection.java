package io.github.affinitykit.bench.load;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler.ClientHandshakeStateEvent;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One WebSocket connection of a load run: sends binary messages carrying a sequence number and the
 * intended send time, checks that echoes come back in order, records their latency.
 *
 * <p>Fixed-rate mode sends on a schedule and, when the event loop is late, catches up with the
 * intended times it missed (so latency includes the delay: no coordinated omission). Maximum mode
 * keeps {@code window} messages in flight.
 *
 * <p>Thread safety: confined to its channel's event loop, but for {@link #go}, which the
 * controlling thread calls once after the handshakes.
 */
final class LoadConnection extends SimpleChannelInboundHandler<WebSocketFrame> {
  private final LoadRun run;
  private final long intervalNs;
  private final long offsetNs;
  private final CountDownLatch handshakes;
  private ChannelHandlerContext ctx;
  private long nextSeq;
  private long expectSeq;
  private boolean doneSending;

  LoadConnection(LoadRun run, int index, CountDownLatch handshakes) {
    this.run = run;
    LoadConfig c = run.config();
    this.intervalNs = c.fixedRate() ? c.connections() * 1_000_000_000L / c.ratePerSecond() : 0;
    this.offsetNs = c.fixedRate() ? intervalNs * index / c.connections() : 0;
    this.handshakes = handshakes;
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
    if (evt == ClientHandshakeStateEvent.HANDSHAKE_COMPLETE) {
      this.ctx = ctx;
      handshakes.countDown();
    } else if (evt == ClientHandshakeStateEvent.HANDSHAKE_TIMEOUT) {
      run.failed(1);
      handshakes.countDown();
    }
    super.userEventTriggered(ctx, evt);
  }

  /**
   * Starts sending at the run's start time (plus this connection's offset), if the handshake
   * completed; called by the controlling thread once every handshake is done (the latch orders it
   * after {@code ctx} was set).
   */
  void go() {
    ChannelHandlerContext c = ctx;
    if (c != null) {
      run.senderStarted();
      long delay = Math.max(0, run.startNs() + offsetNs - System.nanoTime());
      c.executor().schedule(this::start, delay, TimeUnit.NANOSECONDS);
    }
  }

  private void start() {
    if (run.config().fixedRate()) {
      tick();
    } else {
      for (int i = 0; i < run.config().window(); i++) {
        send(System.nanoTime());
      }
      ctx.flush();
      doneSending(); // closed loop: it sends only on an echo, which the drain waits for
    }
  }

  /** Tells the run this connection will send nothing more that it has not sent (once). */
  private void doneSending() {
    if (!doneSending) {
      doneSending = true;
      run.senderDone();
    }
  }

  /** Fixed rate: send every message whose intended time has come, then sleep until the next. */
  private void tick() {
    long now = System.nanoTime();
    long intended = intendedTime(nextSeq);
    boolean any = false;
    while (intended <= now && intended < run.stopNs()) {
      send(intended);
      any = true;
      intended = intendedTime(nextSeq);
    }
    if (any) {
      ctx.flush();
    }
    if (intended < run.stopNs() && ctx.channel().isActive()) {
      ctx.executor().schedule(this::tick, intended - now, TimeUnit.NANOSECONDS);
    } else {
      doneSending(); // a late loop sent its backlog first: the drain waits for this
    }
  }

  private long intendedTime(long seq) {
    return run.startNs() + offsetNs + seq * intervalNs;
  }

  private void send(long intendedNs) {
    ByteBuf buf = ctx.alloc().buffer(run.config().payloadBytes());
    buf.writeLong(nextSeq++).writeLong(intendedNs).writeZero(run.config().payloadBytes() - 16);
    run.sent(intendedNs);
    ctx.write(new BinaryWebSocketFrame(buf))
        .addListener(
            f -> {
              if (!f.isSuccess()) {
                run.failed(1);
              }
            });
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, WebSocketFrame frame) {
    if (!(frame instanceof BinaryWebSocketFrame) || frame.content().readableBytes() < 16) {
      return; // pongs, text: not ours
    }
    long now = System.nanoTime();
    ByteBuf b = frame.content();
    long seq = b.readLong();
    long intended = b.readLong();
    run.echoed(intended, now, seq == expectSeq);
    expectSeq = seq + 1;
    if (!run.config().fixedRate() && now < run.stopNs()) {
      send(now);
      ctx.flush();
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    if (this.ctx != null) {
      doneSending();
    }
    super.channelInactive(ctx);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    run.failed(1);
    ctx.close();
  }
}
