/**
 * Affinity Kit for Netty 4.2: pinned event loop groups ({@code io.github.affinitykit.netty}) that
 * are thin adapters over core's {@code CpuGroup}. The epoll and io_uring transports are optional:
 * add Netty's native transport with your classifier to use them. The reference WebSocket gateway is
 * its own artifact, affinity-gateway.
 */
module io.github.affinitykit.netty {
  requires transitive io.github.affinitykit.core;
  // NIC placement (ServerGroupsBuilder.nic, AssignmentReport.nic)
  requires transitive io.github.affinitykit.hostreport;
  requires transitive io.netty.transport;
  requires transitive io.netty.common;
  requires static io.netty.transport.classes.epoll;
  requires static io.netty.transport.classes.io_uring;

  exports io.github.affinitykit.netty;
}
