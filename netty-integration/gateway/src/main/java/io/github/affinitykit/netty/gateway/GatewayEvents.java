package io.github.affinitykit.netty.gateway;

import io.github.affinitykit.watchdog.WatchEvent;
import io.netty.channel.Channel;

/**
 * What the gateway tells an observer (tests, embedding code) besides its metrics: moments of
 * back-pressure and its watchdog's events, for waiting on them with latches instead of polling.
 *
 * <p>Thread safety: implementations are called from the gateway's loops and its watchdog's thread,
 * concurrently.
 */
interface GatewayEvents {
  /** Nothing. */
  GatewayEvents NONE = new GatewayEvents() {};

  /** {@code client} is no longer read: {@code pendingBytes} of replies wait for it. */
  default void readsPaused(Channel client, long pendingBytes) {}

  /** {@code client} is read again: its replies drained below the low water mark. */
  default void readsResumed(Channel client) {}

  /** The gateway begins closing {@code client} with status {@code code}. */
  default void closing(Channel client, int code) {}

  /** The gateway's watchdog found {@code event} (after counting it, before printing it). */
  default void watchdog(WatchEvent event) {}
}
