package io.github.affinitykit.netty.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameEncoder;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Handshake keys, close-frame accounting, request deadlines, pipelined requests. */
@EnabledOnOs(OS.LINUX)
@Timeout(120)
class GatewayProtocolEdgesIT {
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

  @ParameterizedTest(name = "key \"{0}\"")
  @ValueSource(
      strings = {"abc", "", "AAAAAAAAAAAAAAAAAAAAAA==x", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"})
  void shouldAnswer400WhenTheWebSocketKeyIsNotBase64Of16Bytes(String key) throws Exception {
    GatewayServer s = h.start("--pin", "unpinned");
    Http.Response r =
        Http.raw(
            s.port(),
            "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: "
                + key
                + "\r\n\r\n");
    assertThat(r.status()).isEqualTo(400);
    assertThat(r.body()).contains("(expected: base64 of 16 bytes)");
    assertThat(s.metrics().get(GatewayCount.CONNECTIONS_ACCEPTED)).isZero();
  }

  @ParameterizedTest
  @ValueSource(strings = {"/ws", "/room"})
  void shouldSendExactlyOneCloseFrameWhenATextFrameIsNotUtf8(String path) throws Exception {
    GatewayServer s = h.start("--pin", "unpinned");
    try (RawWs c = RawWs.open(s.port(), path, 65536)) {
      ByteArrayOutputStream frames = new ByteArrayOutputStream();
      frames.writeBytes(RawWs.frame(RawWs.TEXT, true, new byte[] {'a', (byte) 0xFF, 'b'}));
      frames.writeBytes(RawWs.frame(RawWs.TEXT, true, "after".getBytes(StandardCharsets.UTF_8)));
      c.send(frames.toByteArray());

      List<Integer> closeCodes = new ArrayList<>();
      for (int[] head = c.readFrameHead(); head != null; head = c.readFrameHead()) {
        byte[] payload = c.readPayload(head[1]);
        assertThat(head[0]).as("opcode of a frame after the bad one").isEqualTo(0x8);
        closeCodes.add(((payload[0] & 0xff) << 8) | (payload[1] & 0xff));
      }
      assertThat(closeCodes).containsExactly(1007);
    }
    assertThat(s.metrics().closesSent()).isEqualTo(Map.of(1007, 1L));
  }

  @Test
  void shouldCountOnlyThe1007ItWroteWhenUtf8IsBrokenAcrossFragments() throws Exception {
    GatewayServer s = h.start("--pin", "unpinned");
    try (RawWs c = RawWs.open(s.port(), "/ws", 65536)) {
      ByteArrayOutputStream frames = new ByteArrayOutputStream();
      frames.writeBytes(RawWs.frame(RawWs.TEXT, false, new byte[] {'a', (byte) 0xE2, (byte) 0x82}));
      frames.writeBytes(RawWs.frame(RawWs.CONTINUATION, true, new byte[] {'A', 'b'}));
      frames.writeBytes(RawWs.frame(RawWs.TEXT, true, "after".getBytes(StandardCharsets.UTF_8)));
      c.send(frames.toByteArray());

      int[] head = c.readFrameHead();
      byte[] payload = c.readPayload(head[1]);
      assertThat(head[0]).isEqualTo(0x8); // close
      assertThat(((payload[0] & 0xff) << 8) | (payload[1] & 0xff)).isEqualTo(1007);
      assertThat(c.in.read()).isEqualTo(-1); // and nothing after it
    }
    assertThat(s.metrics().closesSent()).isEqualTo(Map.of(1007, 1L));
  }

  @Test
  void shouldSendOneCloseFrameForAViolationAndCountNoneThatFails() {
    GatewayMetrics metrics = new GatewayMetrics();
    GatewayConfig config = GatewayConfig.DEFAULTS;
    GatewayContext g = EmbeddedGateway.context(config, metrics);
    EmbeddedChannel ch = new EmbeddedChannel(new WebSocket13FrameEncoder(false));
    CloseCounter.install(ch.pipeline(), metrics);
    ch.pipeline().addLast(new WsHandler(g, false));

    ch.pipeline() // Netty's decoder no longer closes: the handler sends the frame the violation
        // asks
        .fireExceptionCaught(
            new CorruptedWebSocketFrameException(WebSocketCloseStatus.PROTOCOL_ERROR, "bad"));
    ch.pipeline().fireExceptionCaught(new IllegalStateException("a later frame's failure"));
    assertThat(metrics.closesSent()).isEqualTo(Map.of(1002, 1L)); // no second close, no 1011
    assertThat(ch.isOpen()).isTrue(); // it reads on until the client closes or the drain ends

    ch.close();
    ch.writeAndFlush(new CloseWebSocketFrame(1011, "fails: closed"));
    assertThat(metrics.closesSent()).isEqualTo(Map.of(1002, 1L));
    ch.finishAndReleaseAll();
  }

  @Test
  void shouldCloseRequestsAndHandshakesTrickledAByteAtATime() throws Exception {
    GatewayServer s =
        h.start("--pin", "unpinned", "--idle-timeout", "3s", "--request-timeout", "1s");
    String[] requests = {
      "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + "p".repeat(200) + "\r\n\r\n",
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
          + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
          + "X-Pad: "
          + "p".repeat(200)
          + "\r\n\r\n"
    };
    List<Socket> sockets = new ArrayList<>();
    List<Thread> tricklers = new ArrayList<>();
    try {
      for (int i = 0; i < 10; i++) {
        Socket so = new Socket(InetAddress.getLoopbackAddress(), s.port());
        so.setSoTimeout(20_000);
        sockets.add(so);
        byte[] bytes = requests[i % 2].getBytes(StandardCharsets.ISO_8859_1);
        Thread t = new Thread(() -> trickle(so, bytes), "trickle-" + i);
        tricklers.add(t);
        t.start();
      }
      for (Socket so : sockets) {
        String answer = new String(so.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(answer).startsWith("HTTP/1.1 408");
      }
      assertThat(s.metrics().httpResponses()).containsEntry(408, 10L);
      assertThat(Http.get(s.port(), "/health").status()).isEqualTo(200);
    } finally {
      for (Socket so : sockets) {
        so.close();
      }
      for (Thread t : tricklers) {
        t.join(20_000);
      }
    }
  }

  /** One byte every 100 ms: each resets the idle timer, none completes the request in time. */
  private static void trickle(Socket so, byte[] bytes) {
    try {
      OutputStream out = so.getOutputStream();
      for (byte b : bytes) {
        out.write(b);
        out.flush();
        Thread.sleep(100); // the attack's pace, not synchronisation
      }
    } catch (Exception e) {
      // the server closed the connection, or the test did: the trickle is over
    }
  }

  @Test
  void shouldStopAnsweringPipelinedRequestsThatAreNotRead() throws Exception {
    GatewayServer s =
        h.start("--pin", "unpinned", "--low-water-mark", "16384", "--high-water-mark", "32768");
    String one = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    int n = 2000;
    try (Socket so = new Socket()) {
      so.setReceiveBufferSize(4096);
      so.setSoTimeout(20_000);
      so.connect(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), s.port()));
      so.getOutputStream().write(one.repeat(n).getBytes(StandardCharsets.ISO_8859_1));
      so.getOutputStream().flush();
      InputStream in = so.getInputStream();
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      try {
        in.transferTo(got); // until it closes: FIN, or RST for the requests it left unread
      } catch (java.net.SocketException e) {
        assertThat(e).hasMessageContaining("reset");
      }
      String all = got.toString(StandardCharsets.UTF_8);
      long answered = all.split("HTTP/1.1 200", -1).length - 1L;
      assertThat(answered).isLessThan(n); // the rest were never answered: the server closed
    }
    assertThat(Http.get(s.port(), "/health").status()).isEqualTo(200);
  }
}
