package io.github.affinitykit.reactor;

import io.github.affinitykit.netty.Transport;
import io.netty.channel.Channel;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.uring.IoUringDatagramChannel;

/**
 * The channel classes a transport's loops take, by the channel type Reactor Netty asks for: what
 * its package-private native detection answers for the groups it makes, answered here from the
 * transport the pinned groups were built on (a native class is loaded only for its own transport).
 *
 * <p>Thread safety: stateless.
 */
final class TransportChannels {
  private TransportChannels() {}

  /**
   * Returns {@code transport}'s class for {@code type}.
   *
   * @throws IllegalArgumentException for a type other than {@link SocketChannel}, {@link
   *     ServerSocketChannel} or {@link DatagramChannel}
   */
  @SuppressWarnings("unchecked") // each class is checked to be a C by the type it answers for
  static <C extends Channel> Class<? extends C> classOf(Transport transport, Class<C> type) {
    if (type == ServerSocketChannel.class) {
      return (Class<? extends C>) transport.serverChannel();
    }
    if (type == SocketChannel.class) {
      return (Class<? extends C>) transport.socketChannel();
    }
    if (type == DatagramChannel.class) {
      return (Class<? extends C>) datagram(transport);
    }
    throw new IllegalArgumentException(
        "channelType: "
            + type.getName()
            + " (expected: SocketChannel, ServerSocketChannel or DatagramChannel on "
            + transport
            + ")");
  }

  private static Class<? extends DatagramChannel> datagram(Transport transport) {
    if (transport == Transport.IO_URING) {
      return IoUringDatagramChannel.class;
    }
    if (transport == Transport.EPOLL) {
      return EpollDatagramChannel.class;
    }
    return NioDatagramChannel.class;
  }
}
