package io.github.affinitykit.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.DefaultSelectStrategyFactory;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Each concrete transport's channels and factories; AUTO has none and says so. */
class TransportTest {
  @Test
  void shouldGiveEachConcreteTransportItsOwnChannels() {
    assertThat(Transport.NIO.serverChannel()).isEqualTo(NioServerSocketChannel.class);
    assertThat(Transport.NIO.socketChannel()).isEqualTo(NioSocketChannel.class);
    assertThat(Transport.EPOLL.serverChannel()).isEqualTo(EpollServerSocketChannel.class);
    assertThat(Transport.EPOLL.socketChannel()).isEqualTo(EpollSocketChannel.class);
    assertThat(Transport.IO_URING.serverChannel()).isEqualTo(IoUringServerSocketChannel.class);
    assertThat(Transport.IO_URING.socketChannel()).isEqualTo(IoUringSocketChannel.class);
    assertThat(Transport.NIO.handlerFactory()).isNotNull();
    assertThat(Transport.NIO.handlerFactory(DefaultSelectStrategyFactory.INSTANCE)).isNotNull();
    assertThat(Transport.NIO.unavailability()).isEmpty();
    assertThat(Transport.AUTO.unavailability()).isEmpty();
  }

  @Test
  void shouldRefuseAutoWhereAConcreteTransportIsNeeded() {
    for (Executable call :
        new Executable[] {
          Transport.AUTO::handlerFactory,
          () -> Transport.AUTO.handlerFactory(DefaultSelectStrategyFactory.INSTANCE),
          Transport.AUTO::serverChannel,
          Transport.AUTO::socketChannel
        }) {
      assertThatThrownBy(call::execute)
          .isInstanceOf(IllegalStateException.class)
          .hasMessage(
              "transport: AUTO (expected: a concrete transport; use TransportChoice.choose(AUTO))");
    }
  }
}
