package io.github.affinitykit.netty.gateway;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A 2-CPU smoke load for the gateway, not a benchmark: {@code C} connections each echo {@code M}
 * text messages with {@code W} in flight, checked in order; prints the gateway's CPU % and context
 * switches over the run from two {@code /metrics} scrapes. Run it pinned to other CPUs than the
 * gateway's workers ({@code taskset -c 0 java -cp ... SmokeLoad PORT 20 20000 10}).
 */
public final class SmokeLoad {
  private SmokeLoad() {}

  /** Arguments: port, connections, messages per connection, window. */
  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[0]);
    int connections = Integer.parseInt(args[1]);
    int messages = Integer.parseInt(args[2]);
    int window = Integer.parseInt(args[3]);
    MultiThreadIoEventLoopGroup group =
        new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    CountDownLatch ready = new CountDownLatch(connections);
    CountDownLatch done = new CountDownLatch(connections);
    AtomicLong errors = new AtomicLong();
    List<Echoer> echoers = new ArrayList<>();
    for (int i = 0; i < connections; i++) {
      Echoer e = new Echoer(messages, window, ready, done, errors);
      echoers.add(e);
      e.connect(group, port);
    }
    if (!ready.await(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("handshakes did not complete");
    }
    Map<String, PromParser.Family> before = PromParser.parse(Http.get(port, "/metrics").body());
    long start = System.nanoTime();
    echoers.forEach(Echoer::start);
    if (!done.await(600, TimeUnit.SECONDS)) {
      throw new IllegalStateException("run did not complete");
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    Map<String, PromParser.Family> after = PromParser.parse(Http.get(port, "/metrics").body());
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    long total = (long) connections * messages;
    System.out.printf(
        Locale.ROOT,
        "echoed %d messages in %.2f s (%.0f msg/s), order errors %d%n"
            + "gateway cpu %.1f %% of one CPU; cpu seconds %.2f; context switches: voluntary %.0f,"
            + " involuntary %.0f; worker-0 switches: voluntary %.0f, involuntary %.0f%n",
        total,
        seconds,
        total / seconds,
        errors.get(),
        value(after, "affinitykit_process_cpu_percent", Map.of()),
        value(after, "process_cpu_seconds_total", Map.of())
            - value(before, "process_cpu_seconds_total", Map.of()),
        delta(before, after, "affinitykit_process_live_thread_context_switches", "voluntary"),
        delta(before, after, "affinitykit_process_live_thread_context_switches", "involuntary"),
        workerDelta(before, after, "voluntary"),
        workerDelta(before, after, "involuntary"));
  }

  private static double delta(
      Map<String, PromParser.Family> a,
      Map<String, PromParser.Family> b,
      String name,
      String kind) {
    return value(b, name, Map.of("kind", kind)) - value(a, name, Map.of("kind", kind));
  }

  private static double workerDelta(
      Map<String, PromParser.Family> a, Map<String, PromParser.Family> b, String kind) {
    Map<String, String> l = Map.of("loop", "worker-0", "kind", kind);
    String n = "affinitykit_thread_context_switches_total";
    return value(b, n, l) - value(a, n, l);
  }

  private static double value(
      Map<String, PromParser.Family> f, String name, Map<String, String> l) {
    return f.get(name).samples().stream()
        .filter(s -> s.labels().entrySet().containsAll(l.entrySet()))
        .mapToDouble(PromParser.Sample::value)
        .findFirst()
        .orElse(0);
  }

  /** One connection: keeps {@code window} messages in flight until {@code messages} echoed. */
  private static final class Echoer extends SimpleChannelInboundHandler<TextWebSocketFrame> {
    private final int messages;
    private final int window;
    private final CountDownLatch ready;
    private final CountDownLatch done;
    private final AtomicLong errors;
    private Channel channel;
    private int sent;
    private int received;

    Echoer(int messages, int window, CountDownLatch ready, CountDownLatch done, AtomicLong errors) {
      this.messages = messages;
      this.window = window;
      this.ready = ready;
      this.done = done;
      this.errors = errors;
    }

    void connect(MultiThreadIoEventLoopGroup group, int port) throws InterruptedException {
      WebSocketClientProtocolConfig cfg =
          WebSocketClientProtocolConfig.newBuilder()
              .webSocketUri(URI.create("ws://127.0.0.1:" + port + "/ws"))
              .build();
      Echoer self = this;
      channel =
          new Bootstrap()
              .group(group)
              .channel(NioSocketChannel.class)
              .handler(
                  new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                      ch.pipeline()
                          .addLast(
                              new HttpClientCodec(),
                              new HttpObjectAggregator(65536),
                              new WebSocketClientProtocolHandler(cfg),
                              self);
                    }
                  })
              .connect("127.0.0.1", port)
              .sync()
              .channel();
    }

    void start() {
      channel
          .eventLoop()
          .execute(
              () -> {
                for (int i = 0; i < window && sent < messages; i++) {
                  channel.write(new TextWebSocketFrame("m" + sent++));
                }
                channel.flush();
              });
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt == WebSocketClientProtocolHandler.ClientHandshakeStateEvent.HANDSHAKE_COMPLETE) {
        ready.countDown();
      }
      ctx.fireUserEventTriggered(evt);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, TextWebSocketFrame f) {
      if (!f.text().equals("m" + received)) {
        errors.incrementAndGet();
      }
      if (++received == messages) {
        done.countDown();
        ctx.close();
      } else if (sent < messages) {
        ctx.writeAndFlush(new TextWebSocketFrame("m" + sent++));
      }
    }
  }
}
