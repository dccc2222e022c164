package io.github.affinitykit.netty.gateway;

import io.netty.channel.Channel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.util.Objects;

/**
 * The broadcast room: every message a member sends goes to every member, the sender included. A
 * member that does not read (more than {@code slowLimitBytes} pending to it) is closed with 1008
 * instead of being buffered without bound; the others are not held back.
 *
 * <p>Thread safety: {@link #join} and {@link #broadcast} may be called from any loop.
 */
final class Room {
  /** Policy violation: the member does not read what the room sends it. */
  static final int SLOW_CONSUMER = 1008;

  private final ChannelGroup members =
      new DefaultChannelGroup("room", GlobalEventExecutor.INSTANCE);
  private final GatewayMetrics metrics;
  private final long slowLimitBytes;

  Room(GatewayMetrics metrics, long slowLimitBytes) {
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.slowLimitBytes = slowLimitBytes;
  }

  /** Adds {@code member}; it leaves by closing. */
  void join(Channel member) {
    members.add(member);
  }

  /** Returns the number of members. */
  int size() {
    return members.size();
  }

  /** Sends {@code frame} to every member and releases it. */
  void broadcast(WebSocketFrame frame) {
    try {
      int bytes = frame.content().readableBytes();
      for (Channel m : members) {
        if (!m.isWritable() && m.bytesBeforeWritable() > slowLimitBytes) {
          GatewayContext.goAway(m, SLOW_CONSUMER, "slow consumer");
        } else {
          m.writeAndFlush(frame.retainedDuplicate()).addListener(metrics.queued(bytes));
        }
      }
    } finally {
      frame.release();
    }
  }
}
