package io.github.affinitykit.netty.gateway;

import io.netty.channel.Channel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.EventExecutorGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What the gateway's handlers share: settings, counters, the open channels, the room, whether the
 * server is draining.
 *
 * <p>Thread safety: every component is thread-safe; shared by all loops.
 *
 * @param config the settings
 * @param metrics the counters
 * @param scrapes the {@code /metrics} text, rendered off the event loops
 * @param events the observer
 * @param business the executor group running the WebSocket handlers, if any
 * @param all every open channel
 * @param webSockets every upgraded channel
 * @param room the broadcast room
 * @param draining whether shutdown has begun
 */
record GatewayContext(
    GatewayConfig config,
    GatewayMetrics metrics,
    MetricsScrapes scrapes,
    GatewayEvents events,
    Optional<EventExecutorGroup> business,
    ChannelGroup all,
    ChannelGroup webSockets,
    Room room,
    AtomicBoolean draining) {

  GatewayContext {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(metrics, "metrics");
    Objects.requireNonNull(scrapes, "scrapes");
    Objects.requireNonNull(events, "events");
    Objects.requireNonNull(business, "business");
  }

  static GatewayContext create(
      GatewayConfig config,
      GatewayMetrics metrics,
      MetricsScrapes scrapes,
      GatewayEvents events,
      Optional<EventExecutorGroup> business) {
    return new GatewayContext(
        config,
        metrics,
        scrapes,
        events,
        business,
        new DefaultChannelGroup("all", GlobalEventExecutor.INSTANCE),
        new DefaultChannelGroup("ws", GlobalEventExecutor.INSTANCE),
        new Room(metrics, 4L * config.highWaterMark()),
        new AtomicBoolean());
  }

  /**
   * Asks {@code channel}'s WebSocket handler to close with {@code code}, after the replies to every
   * message it accepted. Any thread.
   */
  static void goAway(Channel channel, int code, String reason) {
    channel.pipeline().fireUserEventTriggered(new GoAway(code, reason));
  }

  /**
   * A request to close a WebSocket with a close frame.
   *
   * @param code the status code
   * @param reason the reason text
   */
  record GoAway(int code, String reason) {}
}
