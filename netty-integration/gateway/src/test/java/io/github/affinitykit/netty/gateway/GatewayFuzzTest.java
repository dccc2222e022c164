package io.github.affinitykit.netty.gateway;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Arrays;

/**
 * Coverage-guided fuzzing of the gateway's connection pipeline ({@link EmbeddedGateway}: the real
 * initializer and handlers on an embedded channel). Whatever bytes a client sends, as HTTP or as
 * WebSocket frames after a valid upgrade: no exception escapes the pipeline, the connection ends
 * closed or still served, and the server never sends more than the input can account for.
 *
 * <p>{@code mvn verify} replays {@code GatewayFuzzTestInputs/<method>/} (test resources) as
 * regression tests; {@code JAZZER_FUZZ=1} fuzzes (see {@code netty-integration/README-fuzzing.md}).
 */
class GatewayFuzzTest {
  /** The most one request can be answered with: {@code /metrics} of this JVM stays far below. */
  private static final long MAX_RESPONSE_BYTES = 64 * 1024;

  /** The smallest request that gets an answer: {@code "GET / HTTP/1.0\r\n\r\n"}. */
  private static final int MIN_REQUEST_BYTES = 16;

  /** Close frames the server may add beyond the echoes and pongs (its own and Netty's). */
  private static final long CLOSE_FRAMES_BYTES = 2 * (2 + 125);

  @FuzzTest(maxDuration = "10m")
  void shouldAnswerOrCloseWhenHttpBytesAreArbitrary(byte[] data) {
    try (EmbeddedGateway gateway = new EmbeddedGateway()) {
      gateway.feed(data, Math.max(1, data.length));
      gateway.assertClosedOrHealthy();
      assertThat(gateway.outbound())
          .as("bytes sent for %d bytes received", data.length)
          .isLessThanOrEqualTo((data.length / MIN_REQUEST_BYTES + 1) * MAX_RESPONSE_BYTES);
    }
  }

  /**
   * The first byte picks the endpoint (bit 0: {@code /room}, else {@code /ws}) and the size of the
   * chunks the rest is fed in (bits 1-7, plus one); the rest are frames after a valid handshake.
   */
  @FuzzTest(maxDuration = "10m")
  void shouldEchoOrCloseWithinBoundsWhenFramesAreArbitrary(byte[] data) {
    int head = data.length == 0 ? 0 : data[0] & 0xFF;
    byte[] frames = Arrays.copyOfRange(data, Math.min(1, data.length), data.length);
    try (EmbeddedGateway gateway = new EmbeddedGateway()) {
      byte[] handshake = upgrade((head & 1) == 1 ? "/room" : "/ws");
      String answer = new String(gateway.feed(handshake, handshake.length), US_ASCII);
      assertThat(answer).startsWith("HTTP/1.1 101 Switching Protocols");
      long sentBefore = gateway.outbound();

      gateway.feed(frames, 1 + (head >>> 1));

      gateway.assertClosedOrHealthy();
      assertThat(gateway.outbound() - sentBefore)
          .as("bytes sent for %d bytes of frames received", frames.length)
          .isLessThanOrEqualTo(frames.length + CLOSE_FRAMES_BYTES);
    }
  }

  static byte[] upgrade(String path) {
    return ("GET "
            + path
            + " HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        .getBytes(US_ASCII);
  }
}
