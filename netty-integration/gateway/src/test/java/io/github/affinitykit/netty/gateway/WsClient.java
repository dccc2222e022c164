package io.github.affinitykit.netty.gateway;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import java.net.URI;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** A WebSocket client on Netty's own client codec, loopback only; records what it receives. */
final class WsClient implements AutoCloseable {
  /** A received data message: text, or binary as bytes. */
  record Message(boolean text, String body, byte[] bytes) {}

  /** A received close frame. */
  record Close(int code, String reason) {}

  final BlockingQueue<Message> received = new LinkedBlockingQueue<>();
  final CompletableFuture<Close> closeFrame = new CompletableFuture<>();
  final CompletableFuture<Void> handshake = new CompletableFuture<>();
  private final Channel channel;

  private WsClient(EventLoopGroup group, int port, String path, Consumer<Bootstrap> tweak)
      throws InterruptedException {
    URI uri = URI.create("ws://127.0.0.1:" + port + path);
    WebSocketClientProtocolConfig cfg =
        WebSocketClientProtocolConfig.newBuilder()
            .webSocketUri(uri)
            .handleCloseFrames(false)
            .maxFramePayloadLength(64 * 1024 * 1024)
            .handshakeTimeoutMillis(20_000)
            .build();
    Bootstrap b =
        new Bootstrap()
            .group(group)
            .channel(NioSocketChannel.class)
            .handler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ch.pipeline()
                        .addLast(new HttpClientCodec())
                        .addLast(new HttpObjectAggregator(1 << 20))
                        .addLast(new WebSocketClientProtocolHandler(cfg))
                        .addLast(new Collector());
                  }
                });
    tweak.accept(b);
    channel = b.connect("127.0.0.1", port).sync().channel();
    channel
        .closeFuture()
        .addListener(
            f ->
                handshake.completeExceptionally(
                    new IllegalStateException("closed before the handshake")));
  }

  static WsClient connect(EventLoopGroup group, int port, String path) throws Exception {
    return connect(group, port, path, b -> {});
  }

  static WsClient connect(EventLoopGroup group, int port, String path, Consumer<Bootstrap> tweak)
      throws Exception {
    WsClient c = new WsClient(group, port, path, tweak);
    c.handshake.get(20, TimeUnit.SECONDS);
    return c;
  }

  /** Connects without waiting for the handshake (which may fail). */
  static WsClient attempt(EventLoopGroup group, int port, String path) throws Exception {
    return new WsClient(group, port, path, b -> {});
  }

  Channel channel() {
    return channel;
  }

  void sendText(String text) {
    channel.writeAndFlush(new TextWebSocketFrame(text));
  }

  void send(WebSocketFrame frame) {
    channel.writeAndFlush(frame);
  }

  Message next() throws InterruptedException {
    Message m = received.poll(20, TimeUnit.SECONDS);
    if (m == null) {
      throw new AssertionError("no message within 20 s");
    }
    return m;
  }

  Close awaitClose() throws Exception {
    return closeFrame.get(20, TimeUnit.SECONDS);
  }

  void awaitClosed() {
    channel.closeFuture().awaitUninterruptibly(20_000);
  }

  @Override
  public void close() {
    channel.close().awaitUninterruptibly(5_000);
  }

  private final class Collector extends SimpleChannelInboundHandler<WebSocketFrame> {
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt == WebSocketClientProtocolHandler.ClientHandshakeStateEvent.HANDSHAKE_COMPLETE) {
        handshake.complete(null);
      }
      ctx.fireUserEventTriggered(evt);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, WebSocketFrame f) {
      if (f instanceof TextWebSocketFrame t) {
        received.add(new Message(true, t.text(), new byte[0]));
      } else if (f instanceof BinaryWebSocketFrame) {
        received.add(new Message(false, "", ByteBufUtil.getBytes(f.content())));
      } else if (f instanceof CloseWebSocketFrame c) {
        closeFrame.complete(new Close(c.statusCode(), c.reasonText()));
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      handshake.completeExceptionally(cause);
      ctx.close();
    }
  }
}
