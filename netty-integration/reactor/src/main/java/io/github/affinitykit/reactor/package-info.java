/**
 * Reactor Netty's loops pinned by Affinity Kit: {@link
 * io.github.affinitykit.reactor.PinnedLoopResources}, a {@code LoopResources} over {@code
 * PinnedServerGroups}.
 */
package io.github.affinitykit.reactor;
