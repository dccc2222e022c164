package io.github.affinitykit.netty.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway's limits and its {@code /metrics} endpoint: connections beyond {@code
 * --max-connections} closed at accept and counted, {@code /metrics} on an address of its own, and
 * pipelined requests answered in order while the metrics render off the loop.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(120)
class GatewayLimitsIT {
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
  void shouldCloseAConnectionBeyondTheLimitAtAcceptCountItAndServeAgainOnceOneCloses()
      throws Exception {
    GatewayServer s = h.start("--pin", "unpinned", "--max-connections", "2");
    WsClient a = h.connect(s, "/ws");
    WsClient b = h.connect(s, "/ws");
    a.sendText("a");
    b.sendText("b");
    assertThat(a.next().body()).isEqualTo("a");
    assertThat(b.next().body()).isEqualTo("b");

    try (Socket third = new Socket(InetAddress.getLoopbackAddress(), s.port())) {
      third.setSoTimeout(20_000);
      int first;
      try {
        first = third.getInputStream().read();
      } catch (SocketException e) { // reset: closed all the same
        first = -1;
      }
      assertThat(first).as("closed with nothing sent").isEqualTo(-1);
    }
    assertThat(s.metrics().get(GatewayCount.CONNECTIONS_REFUSED)).isEqualTo(1);
    assertThat(PromParser.parse(s.metricsText()))
        .extractingByKey("affinitykit_gateway_connections_refused_total")
        .satisfies(f -> assertThat(f.samples().get(0).value()).isEqualTo(1));

    a.close();
    assertThat(healthOnceFree(s.port())).as("a closed connection frees its place").isEqualTo(200);
    b.sendText("still");
    assertThat(b.next().body()).isEqualTo("still");
  }

  @Test
  void shouldServeMetricsOnTheirOwnAddressOnlyWhenAsked() throws Exception {
    GatewayServer s = h.start("--pin", "unpinned", "--metrics-address", "127.0.0.1:0");
    int metricsPort = s.metricsPort().orElseThrow();

    Http.Response m = Http.get(metricsPort, "/metrics");

    assertThat(metricsPort).isNotEqualTo(s.port());
    assertThat(m.status()).isEqualTo(200);
    assertThat(PromParser.parse(m.body())).containsKey("affinitykit_gateway_connections");
    assertThat(Http.get(s.port(), "/metrics").status()).as("not on the main port").isEqualTo(404);
    assertThat(Http.get(metricsPort, "/health").status()).as("metrics alone").isEqualTo(404);
    assertThat(Http.get(s.port(), "/health").status()).isEqualTo(200);
    assertThat(h.start("--pin", "unpinned").metricsPort()).isEmpty();
  }

  @Test
  void shouldAnswerPipelinedRequestsInOrderWhileTheMetricsRenderOffTheLoop() throws Exception {
    GatewayServer s = h.start("--pin", "unpinned"); // nothing rendered yet: the first scrape waits
    String get = "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%s\r\n";
    String three =
        String.format(get, "/metrics", "")
            + String.format(get, "/health", "")
            + String.format(get, "/metrics", "Connection: close\r\n");

    List<String> responses = List.of(raw(s.port(), three).split("HTTP/1\\.1 ", -1));

    assertThat(responses).hasSize(4); // "" before the first
    assertThat(responses.get(1)).startsWith("200 ").contains("# HELP");
    assertThat(responses.get(2)).startsWith("200 ").endsWith("\r\n\r\nok\n");
    assertThat(responses.get(3)).startsWith("200 ").contains("# HELP");
  }

  /** Sends {@code requests} at once, reads until the server closes. */
  private static String raw(int port, String requests) throws IOException {
    try (Socket so = new Socket(InetAddress.getLoopbackAddress(), port)) {
      so.setSoTimeout(20_000);
      so.getOutputStream().write(requests.getBytes(StandardCharsets.ISO_8859_1));
      InputStream in = so.getInputStream();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      in.transferTo(all);
      return all.toString(StandardCharsets.UTF_8);
    }
  }

  /** {@code /health}'s status once the server has seen a connection close (20 s at most). */
  private static int healthOnceFree(int port) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (true) {
      try {
        return Http.get(port, "/health").status();
      } catch (IOException | RuntimeException e) { // refused: the close is not seen yet
        if (System.nanoTime() > deadline) {
          throw new AssertionError("no place freed within 20 s", e);
        }
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // polling another process' view
      }
    }
  }
}
