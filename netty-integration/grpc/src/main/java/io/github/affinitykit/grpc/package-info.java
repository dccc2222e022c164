/**
 * Pinned event loops for gRPC-java's Netty server: {@link
 * io.github.affinitykit.grpc.PinnedGrpcServer#configure} hands a {@code NettyServerBuilder} the
 * boss group, the worker group and the server channel class of one {@code PinnedServerGroups}, and
 * its business executor, if any, as the executor of the calls. Placement, run-out, the wait policy
 * and the report are netty-integration's.
 */
package io.github.affinitykit.grpc;
