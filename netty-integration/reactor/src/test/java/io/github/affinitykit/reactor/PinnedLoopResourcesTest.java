package io.github.affinitykit.reactor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.netty.LoopAssignment;
import io.github.affinitykit.netty.PinnedServerGroups;
import io.github.affinitykit.netty.Transport;
import io.github.affinitykit.watchdog.Watchdog;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.unix.DomainSocketChannel;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.tcp.TcpServer;

/**
 * A real Reactor Netty {@code HttpServer} and {@code TcpServer} on {@link PinnedLoopResources},
 * answering the JDK's HTTP client and a plain socket from a pinned worker; every loop's kernel mask
 * read back on the loop; every CPU free once disposed.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(60)
class PinnedLoopResourcesTest {
  private AffinityKit kit;

  @BeforeEach
  void setUp() throws Exception {
    kit = LoopMasks.kit();
    assumeTrue(kit.backend().isSupported(), kit.backend().reason());
  }

  @ParameterizedTest
  @EnumSource(
      value = Transport.class,
      names = {"NIO", "EPOLL"})
  void shouldAnswerHttpFromAPinnedWorkerWithEveryLoopOnItsCpu(Transport transport)
      throws Exception {
    PinnedLoopResources loops =
        PinnedLoopResources.of(
            PinnedServerGroups.builder(kit).transport(transport).workers(1).build());
    DisposableServer server =
        HttpServer.create()
            .runOn(loops)
            .host("127.0.0.1")
            .port(0)
            .handle((req, res) -> res.sendString(Mono.fromCallable(LoopMasks::here)))
            .bindNow(Duration.ofSeconds(20));
    try {
      HttpResponse<String> answer =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/"))
                      .timeout(Duration.ofSeconds(20))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());

      LoopAssignment worker = loops.report().loop("worker", 0).orElseThrow();
      assertThat(answer.statusCode()).isEqualTo(200);
      assertThat(worker.status()).isEqualTo(LeaseStatus.PINNED);
      assertThat(answer.body()).as("the serving thread's mask").isEqualTo("" + worker.cpu());
      assertThat(server.channel().getClass()).isEqualTo(transport.serverChannel());
      assertThat(loops.groups().transport().transport()).isEqualTo(transport);
      LoopMasks.assertOnTheirCpus(loops.groups().workers());
      LoopMasks.assertOnTheirCpus(loops.groups().boss());
    } finally {
      server.disposeNow(Duration.ofSeconds(20));
      loops.disposeLater(Duration.ZERO, Duration.ofSeconds(5)).block(Duration.ofSeconds(20));
    }
    assertThat(loops.isDisposed()).isTrue();
    assertThat(loops.report().loops())
        .allSatisfy(l -> assertThat(l.status()).isEqualTo(LeaseStatus.RELEASED));
    assertThat(kit.reservations().reservedHere().isEmpty()).as("every CPU free").isTrue();
  }

  @Test
  void shouldAnswerTcpFromAPinnedWorkerAndStopTheWatchdogOnDispose() throws Exception {
    Watchdog dog = Watchdog.builder(kit).period(Duration.ofSeconds(1)).build();
    PinnedLoopResources loops =
        PinnedLoopResources.of(
            PinnedServerGroups.builder(kit).transport(Transport.NIO).workers(1).build(), dog);
    DisposableServer server =
        TcpServer.create()
            .runOn(loops)
            .host("127.0.0.1")
            .port(0)
            .handle((in, out) -> out.sendString(Mono.fromCallable(() -> LoopMasks.here() + "\n")))
            .bindNow(Duration.ofSeconds(20));
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(20_000);
      String line =
          new BufferedReader(
                  new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
              .readLine();

      assertThat(line).isEqualTo("" + loops.report().loop("worker", 0).orElseThrow().cpu());
      assertThat(loops.watchdog()).containsSame(dog);
      assertThat(dog.isRunning()).isTrue();
      assertThat(dog.checkNow().toString()).doesNotContain("MOVED", "LOST");
      LoopMasks.assertOnTheirCpus(loops.groups().workers());
    } finally {
      server.disposeNow(Duration.ofSeconds(20));
      loops.dispose(); // Reactor's way: disposeLater() subscribed, Netty's quiet period
    }
    assertThat(loops.groups().shutdownGracefully(0, 5, TimeUnit.SECONDS))
        .succeedsWithin(Duration.ofSeconds(20));
    assertThat(dog.isRunning()).isFalse();
    assertThat(kit.reservations().reservedHere().isEmpty()).as("every CPU free").isTrue();
  }

  @Test
  void shouldAnswerTheChannelTypesOfTheGroupsTransport() {
    PinnedLoopResources nio =
        PinnedLoopResources.of(
            PinnedServerGroups.builder(kit).transport(Transport.NIO).workers(1).build());
    PinnedLoopResources epoll =
        PinnedLoopResources.of(
            PinnedServerGroups.builder(kit).transport(Transport.EPOLL).workers(1).build());
    try {
      assertThat(nio.onServer(true)).isSameAs(nio.groups().workers()).isSameAs(nio.onClient(true));
      assertThat(nio.onServerSelect(true)).isSameAs(nio.groups().boss());
      assertThat(nio.onChannelClass(ServerSocketChannel.class, nio.onServerSelect(true)))
          .isEqualTo(NioServerSocketChannel.class);
      assertThat(nio.onChannelClass(SocketChannel.class, nio.onServer(false)))
          .isEqualTo(NioSocketChannel.class);
      assertThat(nio.onChannel(DatagramChannel.class, nio.onServer(true)))
          .isInstanceOf(NioDatagramChannel.class);
      assertThat(epoll.onChannelClass(ServerSocketChannel.class, epoll.onServerSelect(false)))
          .as("useNative cannot change the groups' transport")
          .isEqualTo(EpollServerSocketChannel.class);
      assertThat(epoll.onChannel(SocketChannel.class, epoll.onServer(true)))
          .isInstanceOf(EpollSocketChannel.class);
      assertThatThrownBy(() -> nio.onChannelClass(DomainSocketChannel.class, nio.onServer(true)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("channelType: io.netty.channel.unix.DomainSocketChannel")
          .hasMessageContaining("(expected: SocketChannel, ServerSocketChannel or DatagramChannel");
      assertThat(nio.toString()).startsWith("PinnedLoopResources transport NIO");
    } finally {
      nio.disposeLater(Duration.ZERO, Duration.ofSeconds(5)).block(Duration.ofSeconds(20));
      epoll.disposeLater().block(Duration.ofSeconds(30));
    }
  }

  @Test
  void shouldLeaveAGroupOfAnotherMakerToReactorsOwnDetection() {
    MultiThreadIoEventLoopGroup other =
        new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    PinnedLoopResources loops =
        PinnedLoopResources.of(
            PinnedServerGroups.builder(kit).transport(Transport.EPOLL).workers(1).build());
    try {
      assertThat(loops.onChannelClass(SocketChannel.class, other))
          .isEqualTo(NioSocketChannel.class);
    } finally {
      other.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
      loops.close();
    }
  }
}
