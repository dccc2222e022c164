/**
 * Affinity Kit for Netty 4.2: pinned event loop groups ({@code io.github.affinitykit.netty}) that
 * are thin adapters over core's {@code CpuGroup}, and the reference WebSocket gateway application
 * ({@code gateway}). The epoll and io_uring transports are optional: add Netty's native transport
 * with your classifier to use them.
 */
module io.github.affinitykit.netty {
  requires transitive io.github.affinitykit.core;
  requires transitive io.netty.transport;
  requires transitive io.netty.common;
  requires io.netty.buffer;
  requires io.netty.codec;
  requires io.netty.codec.http;
  requires io.netty.handler;
  requires static io.netty.transport.classes.epoll;
  requires static io.netty.transport.classes.io_uring;
  requires static info.picocli;
  requires static micrometer.core;
  requires static micrometer.registry.prometheus;
  requires static io.prometheus.metrics.core;
  requires static java.management;

  exports io.github.affinitykit.netty;
}
