package io.github.affinitykit.vertx;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which of Vert.x's threads is an event loop, from its name and worker flag. */
class ThreadRoleTest {
  @Test
  void shouldTellTheEventLoopsFromVertxsOtherThreads() {
    assertThat(ThreadRole.of("vert.x-eventloop-thread-0", false, 2))
        .isEqualTo(ThreadRole.EVENT_LOOP);
    assertThat(ThreadRole.of("vert.x-eventloop-thread-1", false, 2))
        .isEqualTo(ThreadRole.EVENT_LOOP);
    // made from the loops' factory while Vert.x closes, past the pool's size
    assertThat(ThreadRole.of("vert.x-eventloop-thread-2", false, 2)).isEqualTo(ThreadRole.OTHER);
    assertThat(ThreadRole.of("vert.x-eventloop-thread-x", false, 2)).isEqualTo(ThreadRole.OTHER);
    assertThat(ThreadRole.of("vert.x-eventloop-thread-", false, 2)).isEqualTo(ThreadRole.OTHER);
    assertThat(ThreadRole.of("vert.x-eventloop-thread-99999999999", false, 2))
        .isEqualTo(ThreadRole.OTHER);
    assertThat(ThreadRole.of("vert.x-acceptor-thread-0", false, 2)).isEqualTo(ThreadRole.OTHER);
    assertThat(ThreadRole.of("vert.x-worker-thread-0", true, 2)).isEqualTo(ThreadRole.WORKER);
    assertThat(ThreadRole.of("my-pool-0", true, 2)).isEqualTo(ThreadRole.WORKER);
    assertThat(ThreadRole.of("vert.x-internal-blocking-0", true, 2)).isEqualTo(ThreadRole.OTHER);
  }
}
