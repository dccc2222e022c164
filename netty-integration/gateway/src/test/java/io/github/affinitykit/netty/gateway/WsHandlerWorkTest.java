package io.github.affinitykit.netty.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The work per message (--work-ns): spent on the calling thread, none when 0. */
class WsHandlerWorkTest {
  @Test
  void shouldSpendAtLeastTheWorkAskedForBeforeReturning() {
    long t0 = System.nanoTime();
    WsHandler.work(2_000_000);
    assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(2_000_000);
  }

  @Test
  void shouldReturnAtOnceWithoutWork() {
    WsHandler.work(0);
    WsHandler.work(-5); // not configurable (the config refuses it), and harmless
  }
}
