package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.netty.Transport;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The load client against a minimal in-test WebSocket echo server on loopback. */
@Timeout(60)
class LoadClientIT {
  private EventLoopGroup server;
  private Channel listener;
  private URI uri;

  @BeforeEach
  void startEchoServer() throws InterruptedException {
    server = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    listener =
        new ServerBootstrap()
            .group(server)
            .channel(NioServerSocketChannel.class)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ch.pipeline()
                        .addLast(new HttpServerCodec())
                        .addLast(new HttpObjectAggregator(65_536))
                        .addLast(new WebSocketServerProtocolHandler("/ws"))
                        .addLast(
                            new SimpleChannelInboundHandler<BinaryWebSocketFrame>() {
                              @Override
                              protected void channelRead0(
                                  ChannelHandlerContext ctx, BinaryWebSocketFrame f) {
                                ctx.writeAndFlush(f.retainedDuplicate());
                              }
                            });
                  }
                })
            .bind("127.0.0.1", 0)
            .sync()
            .channel();
    uri =
        URI.create(
            "ws://127.0.0.1:" + ((InetSocketAddress) listener.localAddress()).getPort() + "/ws");
  }

  @AfterEach
  void stopEchoServer() {
    listener.close().syncUninterruptibly();
    server.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  private LoadResult run(long rate) throws InterruptedException {
    LoadConfig c =
        new LoadConfig(uri, 4, 64, Duration.ofMillis(200), Duration.ofMillis(600), rate, 4, 1);
    return LoadClient.run(c, r -> new Thread(r, "load-client"));
  }

  @Test
  void shouldSendAtTheFixedRateAndLoseNothing() throws Exception {
    LoadResult r = run(4_000);

    assertThat(r.errors()).isZero();
    assertThat(r.lost()).isZero();
    assertThat(r.outOfOrder()).isZero();
    // 4000/s for 0.6 s, by schedule: the count is exact up to one message per connection.
    assertThat(r.sent()).isBetween(2_396L, 2_404L);
    assertThat(r.received()).isEqualTo(r.sent());
    assertThat(r.latencyNs().getTotalCount()).isEqualTo(r.received());
    assertThat(r.latencyUs(50)).isPositive();
  }

  @Test
  void shouldSleepBetweenSendsOnEpoll() throws Exception {
    // The bundle ships epoll for x86_64 and aarch64: on NIO a fixed-rate client polls between
    // sends due under 0.5 ms apart (here 250 µs) and spends its CPU whatever the rate.
    assertThat(LoadClient.transport()).isEqualTo(Transport.EPOLL);
    AtomicReference<Thread> loop = new AtomicReference<>();
    AtomicLong cpuNs = new AtomicLong();
    AtomicLong wallNs = new AtomicLong();
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    LoadConfig c =
        new LoadConfig(uri, 4, 64, Duration.ofMillis(200), Duration.ofSeconds(1), 4_000, 4, 1);
    LoadClient.run(
        c,
        r -> {
          Thread t = new Thread(r, "load-client");
          loop.set(t);
          return t;
        },
        new LoadClient.Window() {
          @Override
          public void opened() {
            cpuNs.set(-mx.getThreadCpuTime(loop.get().getId()));
            wallNs.set(-System.nanoTime());
          }

          @Override
          public void closed() {
            cpuNs.addAndGet(mx.getThreadCpuTime(loop.get().getId()));
            wallNs.addAndGet(System.nanoTime());
          }
        });

    // 4,000 messages/s cost a few % of a CPU; polling costs all of one while it runs.
    assertThat((double) cpuNs.get() / wallNs.get()).isLessThan(0.5);
  }

  @Test
  void shouldKeepTheWindowFullInMaximumThroughputMode() throws Exception {
    LoadResult r = run(0);

    assertThat(r.errors()).isZero();
    assertThat(r.lost()).isZero();
    assertThat(r.outOfOrder()).isZero();
    assertThat(r.received()).isPositive();
    assertThat(r.messagesPerSecond()).isPositive();
  }

  @Test
  void shouldRejectABadConfigNamingTheValue() {
    assertThatThrownBy(
            () -> new LoadConfig(uri, 0, 64, Duration.ZERO, Duration.ofSeconds(1), 0, 1, 1))
        .hasMessage("connections: 0 (expected: > 0)");
    assertThatThrownBy(
            () -> new LoadConfig(uri, 1, 8, Duration.ZERO, Duration.ofSeconds(1), 0, 1, 1))
        .hasMessageContaining("payloadBytes: 8");
  }
}
