package io.github.affinitykit.netty.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** Bad input never crashes the gateway nor loses accepted messages. Real client, loopback. */
@EnabledOnOs(OS.LINUX)
@Timeout(120)
class GatewayBadInputIT {
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

  /** The server still serves: health and an echo. */
  private void assertStillServes(GatewayServer s) throws Exception {
    assertThat(Http.get(s.port(), "/health").status()).isEqualTo(200);
    WsClient c = h.connect(s, "/ws");
    c.sendText("still here");
    assertThat(c.next().body()).isEqualTo("still here");
  }

  @Test
  void shouldCloseWith1009AfterEchoingWhatCameBeforeAnOversizedFrame() throws Exception {
    GatewayServer s = h.start("--pin", "unpinned", "--max-frame-bytes", "1024");
    WsClient c = h.connect(s, "/ws");

    c.sendText("small");
    c.sendText("x".repeat(2000));

    assertThat(c.next().body()).isEqualTo("small");
    assertThat(c.awaitClose().code()).isEqualTo(1009);
    c.awaitClosed();
    assertThat(s.metrics().closesSent()).containsEntry(1009, 1L);
    assertStillServes(s);
  }

  @Test
  void shouldCloseWith1009WhenAFragmentedMessageGrowsTooBig() throws Exception {
    GatewayServer s = h.start("--pin", "unpinned", "--max-frame-bytes", "1024");
    WsClient c = h.connect(s, "/ws");

    c.send(new TextWebSocketFrame(false, 0, "a".repeat(800)));
    c.send(new ContinuationWebSocketFrame(true, 0, "b".repeat(800)));

    assertThat(c.awaitClose()).isEqualTo(new WsClient.Close(1009, "message too big"));
    assertStillServes(s);
  }

  @Test
  void shouldAnswer400ToAMalformedHandshakeOrRequest() throws Exception {
    GatewayServer s = h.start("--pin", "unpinned");
    Http.Response noKey =
        Http.raw(
            s.port(),
            "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Version: 13\r\n\r\n");
    Http.Response noUpgrade =
        Http.raw(
            s.port(),
            "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nSec-WebSocket-Version: 13\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n");
    Http.Response garbage = Http.raw(s.port(), "\u0001\u0002 NOT HTTP AT ALL\r\n\r\n");

    assertThat(noKey.status()).isEqualTo(400);
    assertThat(noKey.body()).contains("missing key");
    assertThat(noUpgrade.status()).isEqualTo(400);
    assertThat(garbage.status()).isEqualTo(400);
    assertStillServes(s);
  }

  @Test
  void shouldAnswer404ToAnUnknownPath() throws Exception {
    GatewayServer s = h.start("--pin", "unpinned");
    WsClient c = WsClient.attempt(h.clients, s.port(), "/nope");
    assertThatThrownBy(() -> c.handshake.get(20, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .hasMessageContaining("404");
    c.close();
    assertThat(Http.get(s.port(), "/nope").status()).isEqualTo(404);
    assertStillServes(s);
  }

  @Test
  void shouldCloseAnIdleConnectionWith1001() throws Exception {
    GatewayServer s = h.start("--pin", "unpinned", "--idle-timeout", "300ms");
    WsClient c = h.connect(s, "/ws");

    assertThat(c.awaitClose()).isEqualTo(new WsClient.Close(1001, "idle timeout"));
    c.awaitClosed();
    assertThat(c.channel().isActive()).isFalse();
  }

  @Test
  void shouldStopReadingAClientThatDoesNotReadAndLoseNothing() throws Exception {
    CompletableFuture<Channel> paused = new CompletableFuture<>();
    CompletableFuture<Channel> resumed = new CompletableFuture<>();
    GatewayEvents events =
        new GatewayEvents() {
          @Override
          public void readsPaused(Channel client, long pendingBytes) {
            paused.complete(client);
          }

          @Override
          public void readsResumed(Channel client) {
            resumed.complete(client);
          }
        };
    int high = 32 * 1024;
    GatewayServer s =
        h.start(
            events,
            "--pin",
            "unpinned",
            "--low-water-mark",
            "16384",
            "--high-water-mark",
            String.valueOf(high));
    WsClient c =
        WsClient.connect(h.clients, s.port(), "/ws", b -> b.option(ChannelOption.SO_RCVBUF, 16384));
    c.channel().config().setAutoRead(false); // the client stops reading its replies
    int size = 32 * 1024;
    int total = 1024; // 32 MiB: more than every socket buffer on the way

    int sent = send(c, 0, total, size, paused);
    assertThat(paused).isDone();
    assertThat(sent).isLessThan(total); // the client could not push everything: back-pressure
    Channel server = paused.get();
    long pending =
        server
            .eventLoop()
            .submit(() -> server.unsafe().outboundBuffer().totalPendingWriteBytes())
            .get(20, TimeUnit.SECONDS);
    assertThat(pending).isLessThanOrEqualTo(high + 4L * 65_536); // bounded, not 32 MiB
    assertThat(s.metrics().get(GatewayCount.PENDING_BYTES_MAX))
        .isLessThanOrEqualTo(high + 4L * 65_536);

    c.channel().config().setAutoRead(true); // reads again: everything flows, nothing lost
    send(c, sent, total, size, new CompletableFuture<>());
    for (int i = 0; i < total; i++) {
      WsClient.Message m = c.next();
      assertThat(m.bytes()).hasSize(size);
      assertThat(ByteBuffer.wrap(m.bytes()).getInt()).isEqualTo(i);
    }
    assertThat(resumed.get(20, TimeUnit.SECONDS)).isSameAs(server);
    assertThat(s.metrics().get(GatewayCount.MESSAGES_RECEIVED)).isEqualTo(total);
  }

  /** Sends messages from..total-1, waiting when unwritable; stops early once {@code stop}. */
  private static int send(WsClient c, int from, int total, int size, CompletableFuture<?> stop)
      throws Exception {
    for (int i = from; i < total; i++) {
      byte[] body = new byte[size];
      ByteBuffer.wrap(body).putInt(i);
      ChannelFuture f =
          c.channel().writeAndFlush(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(body)));
      if (!c.channel().isWritable()) {
        CompletableFuture<Void> written = new CompletableFuture<>();
        f.addListener(x -> written.complete(null));
        CompletableFuture.anyOf(written, stop).get(20, TimeUnit.SECONDS);
        if (stop.isDone() && !written.isDone()) {
          return i + 1;
        }
      }
    }
    return total;
  }

  @Test
  void shouldCloseARoomMemberThatDoesNotReadWith1008AndKeepServingTheOthers() throws Exception {
    CompletableFuture<Integer> closing = new CompletableFuture<>();
    GatewayEvents events =
        new GatewayEvents() {
          @Override
          public void closing(Channel client, int code) {
            closing.complete(code);
          }
        };
    GatewayServer s =
        h.start(
            events, "--pin", "unpinned", "--low-water-mark", "16384", "--high-water-mark", "32768");
    WsClient talker = h.connect(s, "/room");
    WsClient sleeper =
        WsClient.connect(
            h.clients, s.port(), "/room", b -> b.option(ChannelOption.SO_RCVBUF, 16384));
    sleeper.channel().config().setAutoRead(false);

    int sent = 0;
    while (!closing.isDone() && sent < 4096) {
      byte[] body = new byte[16 * 1024];
      ByteBuffer.wrap(body).putInt(sent++);
      talker.send(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(body)));
      assertThat(ByteBuffer.wrap(talker.next().bytes()).getInt()).isEqualTo(sent - 1);
    }

    assertThat(closing.get(20, TimeUnit.SECONDS)).isEqualTo(1008);
    talker.sendText("after");
    assertThat(talker.next().body()).isEqualTo("after");
    sleeper.close();
  }
}
