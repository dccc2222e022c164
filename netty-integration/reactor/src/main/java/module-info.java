/**
 * Affinity Kit for Reactor Netty ({@code io.github.affinitykit.reactor}): a {@code LoopResources}
 * whose loops are netty-integration's pinned server groups, for {@code HttpServer}, {@code
 * TcpServer} and what runs on them (Spring WebFlux through affinity-spring-boot-starter). Reactor
 * Netty is the application's: this module requires it, netty-integration never does.
 */
module io.github.affinitykit.reactor {
  requires transitive io.github.affinitykit.netty;
  requires transitive io.github.affinitykit.watchdog;
  requires transitive reactor.netty.core;
  requires transitive reactor.core;
  requires transitive org.reactivestreams;
  requires static io.netty.transport.classes.epoll;
  requires static io.netty.transport.classes.io_uring;

  exports io.github.affinitykit.reactor;
}
