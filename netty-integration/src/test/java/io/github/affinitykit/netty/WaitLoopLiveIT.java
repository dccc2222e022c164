package io.github.affinitykit.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.audit.TaskSample;
import io.github.affinitykit.audit.ThreadStats;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.cpu.CpuSet;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A pinned worker loop on this machine answers ping-pong echoes in order; while it spins it does
 * not sleep between messages: its voluntary context switches per message stay near 0, where a
 * blocking loop sleeps once per message. Counts, not times: the machine is shared.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(120)
class WaitLoopLiveIT {
  private static final int WARM_UP = 500;
  private static final int MESSAGES = 3_000;
  private static final SpinLimit LONG_SPIN = SpinLimit.ofTime(Duration.ofSeconds(1));

  @TempDir Path locks;

  static Stream<Arguments> cases() {
    return Stream.of(Transport.NIO, Transport.EPOLL)
        .flatMap(
            t ->
                Stream.of(
                    Arguments.of(t, WaitPolicy.BLOCK, SpinLimit.DEFAULT),
                    Arguments.of(t, WaitPolicy.SPIN_THEN_BLOCK, SpinLimit.DEFAULT),
                    Arguments.of(t, WaitPolicy.SPIN_THEN_BLOCK, LONG_SPIN),
                    Arguments.of(t, WaitPolicy.BUSY_POLL, SpinLimit.DEFAULT)));
  }

  @ParameterizedTest(name = "{0} {1} {2}")
  @MethodSource("cases")
  void shouldEchoInOrderAndSleepPerMessageOnlyWhenBlocking(
      Transport transport, WaitPolicy policy, SpinLimit limit) throws Exception {
    assumeTrue(transport.unavailability().isEmpty(), () -> transport.unavailability().get());
    AffinityKit kit = LiveKit.create(locks);
    assumeTrue(kit.backend().isSupported(), kit.backend().reason());
    assumeTrue(kit.host().reachable().size() >= 2, "needs 2 CPUs");
    try (PinnedServerGroups groups =
        PinnedServerGroups.builder(kit)
            .transport(transport)
            .workers(1)
            .waitPolicy(policy)
            .spinLimit(limit)
            .build()) {
      assertThat(groups.waits().mode(0)).isEqualTo(policy);
      assertThat(groups.waits().honoured()).isTrue();
      Channel server = bind(groups);
      LoopAssignment worker = groups.workers().assignments().get(0);
      assumeTrue(worker.status() == LeaseStatus.PINNED, worker::toString);
      CpuSet mask = kit.backend().getAffinity(0);
      CpuSet client = kit.host().reachable().minus(CpuSet.of(worker.cpu()));
      kit.backend().setAffinity(0, client); // the client never competes with the loop
      double[] perMessage;
      try (Socket s = new Socket()) {
        s.setTcpNoDelay(true);
        s.connect(server.localAddress());
        perMessage = pingPong(s, groups);
      } finally {
        kit.backend().setAffinity(0, mask);
        server.close().syncUninterruptibly();
      }
      System.out.printf(
          "idle-ctxt %s %s %s: voluntary %.3f, involuntary %.3f per message (%d echoes)%n",
          transport, policy.cliName(), limit, perMessage[0], perMessage[1], MESSAGES);
      if (policy == WaitPolicy.BLOCK) {
        assertThat(perMessage[0]).as("a blocking loop sleeps between messages").isGreaterThan(0.3);
      } else if (policy == WaitPolicy.BUSY_POLL || limit.equals(LONG_SPIN)) {
        assertThat(perMessage[0]).as("a spinning loop does not sleep").isLessThan(0.1);
      }
    }
  }

  private static Channel bind(PinnedServerGroups groups) {
    return new ServerBootstrap()
        .group(groups.boss(), groups.workers())
        .channel(groups.serverChannel())
        .childHandler(new Echo())
        .bind(new InetSocketAddress("127.0.0.1", 0))
        .syncUninterruptibly()
        .channel();
  }

  /** Sends sequence numbers one at a time; returns the loop's {voluntary, involuntary}/message. */
  private static double[] pingPong(Socket s, PinnedServerGroups groups) throws IOException {
    DataOutputStream out = new DataOutputStream(s.getOutputStream());
    DataInputStream in = new DataInputStream(s.getInputStream());
    echo(out, in, 0, WARM_UP);
    int tid = groups.workers().assignments().get(0).tid();
    TaskSample before = ThreadStats.snapshot().thread(tid).orElseThrow();
    echo(out, in, WARM_UP, MESSAGES);
    TaskSample after = ThreadStats.snapshot().thread(tid).orElseThrow();
    return new double[] {
      (after.voluntarySwitches() - before.voluntarySwitches()) / (double) MESSAGES,
      (after.involuntarySwitches() - before.involuntarySwitches()) / (double) MESSAGES
    };
  }

  private static void echo(DataOutputStream out, DataInputStream in, long from, int count)
      throws IOException {
    for (long i = from; i < from + count; i++) {
      out.writeLong(i);
      out.flush();
      assertThat(in.readLong()).isEqualTo(i);
    }
  }

  /** Writes back what it reads. */
  @ChannelHandler.Sharable
  private static final class Echo extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ctx.writeAndFlush(msg);
    }
  }
}
