package io.github.affinitykit.netty.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The work per message (--work-ns): spent on the calling thread before the echo. */
class WsHandlerWorkTest {
  @Test
  @Timeout(10)
  void shouldSpendAtLeastTheWorkAskedForBeforeReturning() {
    long t0 = System.nanoTime();
    WsHandler.work(2_000_000);
    assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(2_000_000);
  }
}
