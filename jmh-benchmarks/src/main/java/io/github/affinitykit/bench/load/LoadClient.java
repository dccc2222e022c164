package io.github.affinitykit.bench.load;

import io.github.affinitykit.netty.Transport;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;

/**
 * A WebSocket load generator on Netty with HdrHistogram: {@code connections} connections to one
 * endpoint, fixed-rate (open loop) or maximum-throughput (closed loop) binary echo traffic, a
 * warm-up (as long as the caller's {@link Window#warmUp} decides, within the config's), a recorded
 * window, then a drain that counts every message never echoed as lost.
 *
 * <p>Thread safety: {@link #run} blocks its caller until the run ends; runs are independent.
 */
public final class LoadClient {
  /** How long the echoes still in flight when the recorded window closes are waited for. */
  static final long DRAIN_NS = TimeUnit.SECONDS.toNanos(5);

  /** From the last handshake to the first message: time to schedule every connection's start. */
  private static final long START_DELAY_NS = TimeUnit.MILLISECONDS.toNanos(50);

  /**
   * How far ahead the recorded window opens when the warm-up ends. A sender decides whether a
   * message is in the window when it has sent it, by the window it sees then: opened at "now", a
   * message meant for just after "now" could be sent, and judged outside, before the window's start
   * was stored, and its echo then counted inside (received 999 of 998 sent, once in CI). Opened
   * this far ahead, that needs the opening thread to stall this long between reading the clock and
   * storing the start.
   */
  private static final long RECORD_DELAY_NS = TimeUnit.MILLISECONDS.toNanos(100);

  private LoadClient() {}

  /**
   * The client's transport: epoll where it loads, else NIO. A fixed-rate client always has a send
   * due within a fraction of a millisecond (the connections' schedules are staggered: one send
   * every 1/rate s), and Netty's NIO loop does not block for a task due in under 0.5 ms: it polls
   * ({@code selectNow}) until then, so on NIO the client spends its whole CPU at any rate over
   * ~2,000 msg/s, and competes with whatever shares that CPU. Epoll's loop sleeps on a timerfd with
   * microsecond resolution.
   *
   * @return {@link Transport#EPOLL} if it loads here, else {@link Transport#NIO}
   */
  static Transport transport() {
    return Transport.EPOLL.unavailability().isEmpty() ? Transport.EPOLL : Transport.NIO;
  }

  /**
   * Called by the thread running a load when its warm-up should end and when its recorded window
   * opens and closes, to take the server's counters over exactly that window.
   */
  public interface Window {
    /**
     * The connections are sending and nothing is recorded yet: returns when the recorded window
     * should open, at the latest after {@code limit}; by default after exactly {@code limit}.
     *
     * @param echoed the echoes received so far
     */
    default void warmUp(Duration limit, LongSupplier echoed) throws InterruptedException {
      awaitNanos(limit.toNanos());
    }

    /** The recorded window has just opened. */
    void opened();

    /**
     * Called once, just before {@link #opened()}: {@code intervals} returns the latencies recorded
     * since its previous call (a soak reads one a minute); by default nothing reads it.
     */
    default void latencyIntervals(Supplier<Histogram> intervals) {}

    /** The recorded window has just closed (echoes still in flight are being drained). */
    void closed();

    /**
     * How long to wait for the echoes still in flight before counting them lost: by default {@link
     * #DRAIN_NS}; a probe that only asks whether a rate was sustained needs less.
     */
    default long drainNs() {
      return DRAIN_NS;
    }

    /**
     * Every echo is in (or the drain timed out) and the connections are still open: the place to
     * measure what an idle server costs. The connections close when this returns.
     */
    default void drained() throws InterruptedException {}
  }

  /**
   * Runs one load and returns what it measured.
   *
   * @param threads creates the client's event-loop threads (pin them away from the server)
   */
  public static LoadResult run(LoadConfig config, ThreadFactory threads)
      throws InterruptedException {
    return run(
        config,
        threads,
        new Window() {
          @Override
          public void opened() {}

          @Override
          public void closed() {}
        });
  }

  /** Runs one load, telling {@code window} when the recorded window opens and closes. */
  public static LoadResult run(LoadConfig config, ThreadFactory threads, Window window)
      throws InterruptedException {
    Transport transport = transport();
    EventLoopGroup group =
        new MultiThreadIoEventLoopGroup(config.ioThreads(), threads, transport.handlerFactory());
    try {
      CountDownLatch handshakes = new CountDownLatch(config.connections());
      LoadRun run = new LoadRun(config);
      List<LoadConnection> connections = new ArrayList<>();
      List<Channel> channels = connect(group, transport, config, run, handshakes, connections);
      if (!handshakes.await(20, TimeUnit.SECONDS)) {
        run.failed(handshakes.getCount());
      }
      run.start(System.nanoTime() + START_DELAY_NS);
      connections.forEach(LoadConnection::go);
      awaitNanos(run.startNs() - System.nanoTime());
      window.warmUp(config.warmup(), run::echoed);
      run.record(System.nanoTime() + RECORD_DELAY_NS);
      awaitNanos(run.recordFromNs() - System.nanoTime());
      window.latencyIntervals(run::intervalLatency);
      window.opened();
      awaitNanos(run.stopNs() - System.nanoTime());
      window.closed();
      long drainUntil = System.nanoTime() + window.drainNs();
      while (!run.drained() && System.nanoTime() < drainUntil) {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
      }
      window.drained();
      for (Channel ch : channels) {
        ch.writeAndFlush(new CloseWebSocketFrame(1000, "load done"));
      }
      return run.result();
    } finally {
      group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  private static List<Channel> connect(
      EventLoopGroup group,
      Transport transport,
      LoadConfig config,
      LoadRun run,
      CountDownLatch handshakes,
      List<LoadConnection> connections)
      throws InterruptedException {
    WebSocketClientProtocolConfig ws =
        WebSocketClientProtocolConfig.newBuilder()
            .webSocketUri(config.uri())
            .maxFramePayloadLength(Math.max(65_536, config.payloadBytes()))
            .handshakeTimeoutMillis(10_000)
            .build();
    List<Channel> channels = new ArrayList<>();
    for (int i = 0; i < config.connections(); i++) {
      LoadConnection connection = new LoadConnection(run, i, handshakes);
      connections.add(connection);
      Bootstrap b =
          new Bootstrap()
              .group(group)
              .channel(transport.socketChannel())
              .handler(
                  new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                      ch.pipeline()
                          .addLast(new HttpClientCodec())
                          .addLast(new HttpObjectAggregator(65_536))
                          .addLast(new WebSocketClientProtocolHandler(ws))
                          .addLast(connection);
                    }
                  });
      channels.add(b.connect(config.uri().getHost(), config.uri().getPort()).sync().channel());
    }
    return channels;
  }

  /** Parks the calling thread for {@code ns}, however often it wakes early. */
  static void awaitNanos(long ns) {
    long until = System.nanoTime() + ns;
    for (long left = ns; left > 0; left = until - System.nanoTime()) {
      LockSupport.parkNanos(left);
    }
  }
}
