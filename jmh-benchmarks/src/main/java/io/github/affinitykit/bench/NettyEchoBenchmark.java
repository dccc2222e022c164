package io.github.affinitykit.bench;

import io.github.affinitykit.audit.JvmThreads;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.netty.PinnedIoEventLoopGroup;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The JMH form of the seed gateway's before/after: an echo server on Netty event loops, driven over
 * loopback TCP by a client on other CPUs, with the server loops unpinned, pinned ({@link
 * PinnedIoEventLoopGroup}) or exclusive (pinned, and the rest of the JVM confined to the other
 * CPUs). Each invocation sends a burst of 32-byte messages on every connection and waits for all
 * echoes; the score is time per message. With {@code -prof
 * io.github.affinitykit.bench.ThreadStatsProfiler}: {@code server.cpu.ms/op} and {@code
 * server.cs/op} are the server loops' CPU and context switches per message. Run: {@code java -jar
 * benchmarks.jar NettyEcho -prof io.github.affinitykit.bench.ThreadStatsProfiler}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class NettyEchoBenchmark {
  private static final int CONNECTIONS = 8;
  private static final int BURST = 64;
  private static final int SIZE = 32;

  /** Where the server's event loops run. */
  @Param({"unpinned", "pinned", "exclusive"})
  public String pin;

  private EventLoopGroup server;
  private EventLoopGroup client;
  private final List<Channel> channels = new ArrayList<>();
  private final AtomicLong echoed = new AtomicLong();
  private Set<Integer> confinedNothing = Set.of();
  private long expected;

  /** Starts server and client; pins as asked. */
  @Setup(Level.Trial)
  public void setUp() throws Exception {
    HostCpus host = HostCpus.probe();
    CpuSet all = host.reachable();
    int serverCpu = all.last();
    CpuSet clientCpus = all.size() > 1 ? all.minus(CpuSet.of(serverCpu)) : all;
    AffinityBackend backend = AffinityBackend.detect();
    AffinityKit kit =
        AffinityKit.create(
            host,
            backend,
            CpuReservations.inDirectory(Files.createTempDirectory("netty-echo-bench")),
            host.pool(CpuSet.of(serverCpu)));
    ThreadFactory serverThreads =
        tagged("server", new DefaultThreadFactory("echo-server"), backend, all);
    server =
        pin.equals("unpinned")
            ? new MultiThreadIoEventLoopGroup(1, serverThreads, NioIoHandler.newFactory())
            : PinnedIoEventLoopGroup.create(
                1,
                serverThreads,
                NioIoHandler.newFactory(),
                kit.group("echo-server").cpus(serverCpu).build());
    client =
        new MultiThreadIoEventLoopGroup(
            1,
            tagged("client", new DefaultThreadFactory("echo-client"), backend, clientCpus),
            NioIoHandler.newFactory());
    if (pin.equals("exclusive") && !clientCpus.equals(all)) {
      JvmThreads.of(kit).confine(clientCpus, confinedNothing);
    }
    connect();
  }

  /** Wraps a factory so threads tag their role and confine themselves to {@code cpus}. */
  private static ThreadFactory tagged(
      String role, ThreadFactory f, AffinityBackend b, CpuSet cpus) {
    return r ->
        f.newThread(
            () -> {
              ThreadRoles.tag(role);
              if (b.isSupported()) {
                b.setAffinity(0, cpus);
              }
              try {
                r.run();
              } finally {
                ThreadRoles.finish(); // loops stop in @TearDown: keep their last counters
              }
            });
  }

  private void connect() throws InterruptedException {
    Channel listener =
        new ServerBootstrap()
            .group(server)
            .channel(NioServerSocketChannel.class)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ch.pipeline().addLast(new Echo());
                  }
                })
            .bind("127.0.0.1", 0)
            .sync()
            .channel();
    channels.add(listener);
    int port = ((InetSocketAddress) listener.localAddress()).getPort();
    for (int i = 0; i < CONNECTIONS; i++) {
      channels.add(
          new Bootstrap()
              .group(client)
              .channel(NioSocketChannel.class)
              .handler(new Counter(echoed))
              .connect("127.0.0.1", port)
              .sync()
              .channel());
    }
  }

  /** A burst on every connection, then wait for every echoed byte. */
  @Benchmark
  @OperationsPerInvocation(CONNECTIONS * BURST)
  public long burst() {
    for (int c = 1; c < channels.size(); c++) {
      Channel ch = channels.get(c);
      for (int i = 0; i < BURST; i++) {
        ch.write(ch.alloc().buffer(SIZE).writeZero(SIZE));
      }
      ch.flush();
    }
    expected += (long) CONNECTIONS * BURST * SIZE;
    while (echoed.get() < expected) {
      Thread.yield(); // the client loop may share this CPU: never spin it out
    }
    return expected;
  }

  /** Closes everything. */
  @TearDown(Level.Trial)
  public void tearDown() {
    channels.forEach(Channel::close);
    client.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    server.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  /** Echoes whatever it reads. */
  private static final class Echo extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ctx.write(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      ctx.flush();
    }
  }

  /** Counts echoed bytes. */
  private static final class Counter extends ChannelInboundHandlerAdapter {
    private final AtomicLong bytes;

    Counter(AtomicLong bytes) {
      this.bytes = bytes;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf b = (ByteBuf) msg;
      bytes.addAndGet(b.readableBytes());
      b.release();
    }
  }
}
