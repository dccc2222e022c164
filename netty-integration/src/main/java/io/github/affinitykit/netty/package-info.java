/**
 * Pinned Netty event loop groups and the reference WebSocket gateway.
 *
 * <p>Skeleton until its issue lands: the module builds against affinity-core and holds no API yet.
 */
package io.github.affinitykit.netty;
