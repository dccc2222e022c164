package io.github.affinitykit.netty.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link RequestDeadline} on virtual time: a request not whole in time gets a 408, and the close
 * lingers (input read and discarded for {@link RequestDeadline#LINGER_MS}) so that the client's
 * next bytes cannot make the kernel reset the connection before the client has read the 408.
 */
class RequestDeadlineTest {
  @Test
  void shouldAnswer408ThenDiscardInputUntilTheLingerEndsBeforeClosing() {
    GatewayMetrics metrics = new GatewayMetrics();
    GatewayContext g =
        EmbeddedGateway.context(GatewayHarness.config("--request-timeout", "1s"), metrics);
    EmbeddedChannel ch = new EmbeddedChannel(new RequestDeadline(g));

    ch.writeInbound(bytes("GET /health HTTP/1.1\r\nHo"));
    ByteBuf forwarded = ch.readInbound();
    assertThat(forwarded).isNotNull();
    forwarded.release();

    ch.advanceTimeBy(1, TimeUnit.SECONDS);
    ch.runScheduledPendingTasks();
    FullHttpResponse res = ch.readOutbound();
    assertThat(res.status()).isEqualTo(HttpResponseStatus.REQUEST_TIMEOUT);
    res.release();
    assertThat(metrics.httpResponses()).containsEntry(408, 1L);
    assertThat(ch.isOpen()).as("open while the close lingers").isTrue();

    ByteBuf late = bytes("st: 127.0.0.1\r\n\r\n");
    ch.writeInbound(late);
    Object next = ch.readInbound();
    assertThat(next).as("late bytes are not a request").isNull();
    assertThat(late.refCnt()).as("discarded bytes are released").isZero();

    ch.advanceTimeBy(RequestDeadline.LINGER_MS, TimeUnit.MILLISECONDS);
    ch.runScheduledPendingTasks();
    assertThat(ch.isOpen()).as("closed once the linger ends").isFalse();
    ch.finishAndReleaseAll();
  }

  private static ByteBuf bytes(String s) {
    return Unpooled.copiedBuffer(s, StandardCharsets.US_ASCII);
  }
}
