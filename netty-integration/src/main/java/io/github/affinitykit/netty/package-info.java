/**
 * Pinned Netty 4.2 event loop groups: {@link io.github.affinitykit.netty.PinnedIoEventLoopGroup}
 * pins loop <i>i</i> to planned CPU <i>i</i> whatever order the loops start in, {@link
 * io.github.affinitykit.netty.PinnedServerGroups} builds a server's boss, workers and business
 * executor with a transport chosen by availability. Each group takes a core {@code CpuGroup} and
 * binds loop <i>i</i> to its <i>i</i>-th seat. For Netty 4.1 and reactor-netty, a core {@code
 * PinnedThreadFactory} with a Netty {@code DefaultThreadFactory} as delegate keeps {@code
 * FastThreadLocalThread}s. The reference WebSocket gateway built on them is its own artifact,
 * affinity-gateway.
 */
package io.github.affinitykit.netty;
