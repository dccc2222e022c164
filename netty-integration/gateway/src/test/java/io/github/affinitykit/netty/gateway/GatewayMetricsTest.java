package io.github.affinitykit.netty.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class GatewayMetricsTest {
  private final GatewayMetrics metrics = new GatewayMetrics();

  @Test
  void shouldCountEachEventInItsOwnSeriesWhenTheGatewayReportsIt() throws Exception {
    metrics.opened();
    metrics.opened();
    metrics.closed();
    metrics.received(10);
    metrics.received(5);
    EmbeddedChannel ch = new EmbeddedChannel();
    ChannelFutureListener sent = metrics.queued(7);
    sent.operationComplete(ch.newSucceededFuture());
    metrics.queued(3).operationComplete(ch.newFailedFuture(new IOException("gone")));
    metrics.paused();
    metrics.dropped();
    metrics.dropped(2);
    metrics.pongSent();
    metrics.pingCoalesced();
    ch.finishAndReleaseAll();

    assertThat(metrics.get(GatewayCount.CONNECTIONS_OPEN)).isEqualTo(1);
    assertThat(metrics.get(GatewayCount.CONNECTIONS_ACCEPTED)).isEqualTo(2);
    assertThat(metrics.get(GatewayCount.MESSAGES_RECEIVED)).isEqualTo(2);
    assertThat(metrics.get(GatewayCount.BYTES_RECEIVED)).isEqualTo(15);
    assertThat(metrics.get(GatewayCount.BYTES_SENT)).isEqualTo(10);
    assertThat(metrics.get(GatewayCount.MESSAGES_SENT)).isEqualTo(1);
    assertThat(metrics.get(GatewayCount.MESSAGES_SEND_FAILED)).isEqualTo(1);
    assertThat(metrics.get(GatewayCount.READS_PAUSED)).isEqualTo(1);
    assertThat(metrics.get(GatewayCount.MESSAGES_DROPPED_AFTER_CLOSE)).isEqualTo(3);
    assertThat(metrics.get(GatewayCount.PONGS_SENT)).isEqualTo(1);
    assertThat(metrics.get(GatewayCount.PINGS_COALESCED)).isEqualTo(1);
  }

  @Test
  void shouldKeepTheLargestPendingAndReadTheCurrentPendingWhenAsked() {
    metrics.pending(100);
    metrics.pending(40);
    metrics.pendingFrom(() -> 12);

    assertThat(metrics.get(GatewayCount.PENDING_BYTES_MAX)).isEqualTo(100);
    assertThat(metrics.get(GatewayCount.PENDING_BYTES)).isEqualTo(12);
  }
}
