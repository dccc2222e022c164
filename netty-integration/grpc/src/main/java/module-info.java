/**
 * Affinity Kit for gRPC-java ({@code io.github.affinitykit.grpc}): a {@code NettyServerBuilder}
 * given netty-integration's pinned boss and worker groups and their channel type, all three at
 * once. grpc-netty is the application's (provided here); its jars are automatic modules ({@code
 * io.grpc}, {@code io.grpc.netty}).
 */
module io.github.affinitykit.grpc {
  requires transitive io.github.affinitykit.netty;
  requires transitive io.grpc; // grpc-api: ServerBuilder, the executor
  requires transitive io.grpc.netty;

  exports io.github.affinitykit.grpc;
}
