package io.github.affinitykit.netty.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.netty.LoopAssignment;
import io.github.affinitykit.watchdog.WatchEvent;
import io.github.affinitykit.watchdog.Watchdog;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The gateway's happy paths with a real WebSocket client on loopback. */
@EnabledOnOs(OS.LINUX)
@Timeout(120)
class GatewayServerIT {
  @TempDir Path locks;
  private GatewayHarness h;

  @BeforeEach
  void setUp() {
    h = new GatewayHarness(locks);
  }

  @AfterEach
  void tearDown() {
    h.close();
  }

  @Test
  void shouldFreeTheCpusOfItsLoopsWhenThePortIsTaken() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      String port = String.valueOf(taken.getLocalPort());

      assertThatThrownBy(() -> h.start("--pin", "pinned", "--transport", "nio", "--port", port))
          .isInstanceOf(BindException.class);

      assertThat(h.kit.reservations().reservedHere().isEmpty()).as("CPUs still held").isTrue();
    }
  }

  @Test
  void shouldEchoTextAndBinaryFrames() throws Exception {
    GatewayServer s = h.start("--pin", "unpinned");
    WsClient c = h.connect(s, "/ws");

    c.sendText("hello");
    c.send(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(new byte[] {1, 2, 3})));

    WsClient.Message text = c.next();
    assertThat(text.text()).isTrue();
    assertThat(text.body()).isEqualTo("hello");
    WsClient.Message bin = c.next();
    assertThat(bin.text()).isFalse();
    assertThat(bin.bytes()).containsExactly(1, 2, 3);
  }

  @Test
  void shouldDoTheConfiguredWorkOnEveryMessageBeforeEchoingIt() throws Exception {
    GatewayServer s = h.start("--pin", "unpinned", "--work-ns", "10000000"); // 10 ms a message
    WsClient c = h.connect(s, "/ws");

    long t0 = System.nanoTime();
    for (int i = 0; i < 3; i++) {
      c.sendText("m" + i);
    }
    for (int i = 0; i < 3; i++) {
      assertThat(c.next().body()).isEqualTo("m" + i);
    }
    // one connection, one loop: the three are handled one after another, 10 ms of work each
    assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(30_000_000L);
  }

  @ParameterizedTest(name = "pin:business threads:transport {0}")
  @ValueSource(
      strings = {
        "unpinned:0:auto",
        "pinned:0:auto",
        "pinned:1:auto",
        "exclusive:0:auto",
        "pinned:0:epoll",
        "pinned:0:nio"
      })
  void shouldEchoEveryMessageOfEveryConnectionInOrder(String mode) throws Exception {
    String[] m = mode.split(":");
    GatewayServer s =
        h.start("--pin", m[0], "--business-threads", m[1], "--workers", "2", "--transport", m[2]);
    int connections = 20;
    int messages = 500;
    List<WsClient> clients = new ArrayList<>();
    for (int i = 0; i < connections; i++) {
      clients.add(h.connect(s, "/ws"));
    }
    for (int j = 0; j < messages; j++) {
      for (int i = 0; i < connections; i++) {
        clients.get(i).sendText(i + ":" + j);
      }
    }
    for (int i = 0; i < connections; i++) {
      for (int j = 0; j < messages; j++) {
        assertThat(clients.get(i).next().body()).isEqualTo(i + ":" + j);
      }
      assertThat(clients.get(i).received).isEmpty();
    }
    assertThat(s.metrics().get(GatewayCount.MESSAGES_RECEIVED))
        .isEqualTo((long) connections * messages);
    if (!m[0].equals("unpinned")) {
      assertThat(s.report().loops()).anyMatch(l -> l.status() == LeaseStatus.PINNED);
    }
    if (m[0].equals("exclusive")) {
      assertThat(s.confined()).isPresent();
    }
  }

  @Test
  void shouldBroadcastToEveryMemberOfTheRoom() throws Exception {
    GatewayServer s = h.start("--pin", "unpinned");
    List<WsClient> members = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      members.add(h.connect(s, "/room"));
    }
    members.get(0).sendText("one");
    for (WsClient c : members) {
      assertThat(c.next().body()).isEqualTo("one");
    }
    members.get(2).sendText("two");
    for (WsClient c : members) {
      assertThat(c.next().body()).isEqualTo("two");
    }
  }

  @Test
  void shouldAnswerHealthAndMetricsThatParseAsPrometheusText() throws Exception {
    GatewayServer s = h.start("--pin", "pinned");
    WsClient c = h.connect(s, "/ws");
    c.sendText("x");
    c.next();

    Http.Response health = Http.get(s.port(), "/health");
    Http.Response metrics = Http.get(s.port(), "/metrics");

    assertThat(health.status()).isEqualTo(200);
    assertThat(health.body()).isEqualTo("ok\n");
    assertThat(metrics.status()).isEqualTo(200);
    assertThat(metrics.head()).contains("text/plain; version=0.0.4");
    Map<String, PromParser.Family> f = PromParser.parse(metrics.body());
    assertThat(f.get("affinitykit_gateway_connections").samples().get(0).value()).isEqualTo(1);
    assertThat(f.get("affinitykit_gateway_messages_received_total").samples().get(0).value())
        .isEqualTo(1);
    assertThat(f.get("affinitykit_process_cpu_percent").type()).isEqualTo("gauge");
    assertThat(f.get("process_cpu_seconds_total").samples().get(0).value()).isPositive();
    assertThat(f.get("affinitykit_thread_cpu_seconds_total").samples()).isNotEmpty();
    assertThat(f.get("affinitykit_thread_context_switches_total").samples())
        .anyMatch(x -> x.labels().get("loop").equals("worker-0"));
    assertThat(f.get("affinitykit_loop_cpu").samples())
        .anyMatch(
            x ->
                x.labels().get("loop").equals("worker-0")
                    && x.labels().get("status").equals("PINNED")
                    && x.value() == s.report().loop("worker", 0).orElseThrow().cpu());
    assertThat(f.get("affinitykit_gateway_info").samples().get(0).labels())
        .containsEntry("pin", "pinned");
    int worker0 = s.report().loop("worker", 0).orElseThrow().cpu(); // the kit's meter binder:
    assertThat(f.get("affinity_threads").samples())
        .anyMatch(x -> x.labels().get("status").equals("pinned") && x.value() >= 1);
    assertThat(f.get("affinity_thread_cpu_time_seconds_total").samples())
        .anyMatch(
            x ->
                x.labels().get("group").equals("worker")
                    && x.labels().get("cpu").equals(String.valueOf(worker0)));
    assertThat(f.get("affinity_leases_moved_total").samples().get(0).value()).isZero();
  }

  @Test
  void shouldCloseEveryClientWith1001AfterEchoingWhatItAcceptedAndFreeTheCpus() throws Exception {
    GatewayServer s = h.start("--pin", "pinned");
    assertThat(h.kit.reservations().reservedHere().isEmpty()).isFalse();
    WsClient a = h.connect(s, "/ws");
    WsClient b = h.connect(s, "/room");
    for (int i = 0; i < 100; i++) {
      a.sendText("m" + i);
    }
    a.channel().writeAndFlush(Unpooled.EMPTY_BUFFER).sync(); // all 100 are on the wire
    for (int i = 0; i < 100; i++) {
      assertThat(a.next().body()).isEqualTo("m" + i);
    }

    s.close();

    assertThat(a.awaitClose()).isEqualTo(new WsClient.Close(1001, "server shutting down"));
    assertThat(b.awaitClose().code()).isEqualTo(1001);
    a.awaitClosed();
    b.awaitClosed();
    assertThat(h.kit.reservations().reservedHere().isEmpty()).isTrue();
    assertThat(s.metrics().closesSent()).containsEntry(1001, 2L);
  }

  @Test
  void shouldPutAWorkerWhoseMaskWasWidenedBackOnItsCpuAndSayItInMetrics() throws Exception {
    Assumptions.assumeTrue(h.kit.backend().isSupported(), h.kit.backend().reason());
    Assumptions.assumeTrue(h.kit.host().reachable().size() > 1, "one CPU: nothing to widen");
    CountDownLatch repinned = new CountDownLatch(1);
    GatewayEvents events =
        new GatewayEvents() {
          @Override
          public void watchdog(WatchEvent e) {
            if (e.kind() == WatchEvent.Kind.REPINNED) {
              repinned.countDown();
            }
          }
        };
    GatewayServer s =
        h.start(events, "--pin", "pinned", "--transport", "nio", "--watchdog", "50ms");
    LoopAssignment w = s.report().loop("worker", 0).orElseThrow();
    Assumptions.assumeTrue(w.status() == LeaseStatus.PINNED, "worker-0 not pinned: " + w);
    Watchdog dog = s.watchdog().orElseThrow();

    h.kit.backend().setAffinity(w.tid(), h.kit.host().reachable()); // an operator's taskset

    assertThat(repinned.await(20, TimeUnit.SECONDS)).as("the watchdog re-pinned worker-0").isTrue();
    assertThat(dog.count(WatchEvent.Kind.MOVED)).isEqualTo(1);
    assertThat(dog.count(WatchEvent.Kind.REPINNED)).isEqualTo(1);
    assertThat(h.kit.backend().getAffinity(w.tid())).isEqualTo(CpuSet.of(w.cpu()));
    assertThat(s.report().loop("worker", 0).orElseThrow().reason()).contains("re-pinned after");
    Map<String, PromParser.Family> f = PromParser.parse(Http.get(s.port(), "/metrics").body());
    assertThat(f.get("affinity_watchdog_events_total").samples())
        .anyMatch(x -> x.labels().get("kind").equals("repinned") && x.value() == 1);
    assertThat(f.get("affinity_leases_moved_total").samples().get(0).value()).isEqualTo(1);
  }
}
