package io.github.affinitykit.netty;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.SelectStrategyFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;
import java.nio.channels.spi.SelectorProvider;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A Netty 4.2 I/O transport: its handler factory and channel classes. {@link #AUTO} stands for the
 * first available of io_uring, epoll, NIO (see {@link TransportChoice#choose(Transport)}).
 *
 * <p>Thread safety: immutable. {@link #unavailability()} loads the native library on first use
 * (Netty probes once per JVM).
 */
public enum Transport {
  /** io_uring → epoll → NIO, the first that loads here. */
  AUTO,
  /** Linux io_uring (native, kernel 5.14+). */
  IO_URING,
  /** Linux epoll (native). */
  EPOLL,
  /** Java NIO: available everywhere. */
  NIO;

  /**
   * Returns why this transport cannot be used here, or empty if it can. NIO and AUTO are always
   * available. The native transports are optional dependencies: when one's jar is missing (or has
   * another platform's classifier), the reason says which artifact to add, e.g. {@code add
   * netty-transport-native-epoll with your classifier (linux-x86_64, linux-aarch_64)}.
   *
   * @return one line saying why; empty when the transport loads here
   */
  public Optional<String> unavailability() {
    try {
      if (this == IO_URING) {
        return cause(IoUring.isAvailable(), IoUring.unavailabilityCause());
      }
      return this == EPOLL
          ? cause(Epoll.isAvailable(), Epoll.unavailabilityCause())
          : Optional.empty();
    } catch (LinkageError e) {
      // Not even the classes jar: the application did not add the native transport.
      return Optional.of(addNative());
    } catch (RuntimeException e) {
      return Optional.of(name().toLowerCase(Locale.ROOT) + " failed to load: " + e);
    }
  }

  private Optional<String> cause(boolean available, Throwable cause) {
    if (available) {
      return Optional.empty();
    }
    if (cause instanceof UnsatisfiedLinkError) {
      // Netty found no native library for this platform in its jars.
      return Optional.of(addNative() + ": " + cause.getMessage());
    }
    return Optional.of(cause == null ? "unavailable" : String.valueOf(cause));
  }

  private String addNative() {
    return "add netty-transport-native-"
        + name().toLowerCase(Locale.ROOT)
        + " with your classifier (linux-x86_64, linux-aarch_64)";
  }

  /**
   * Returns a new handler factory for this transport's loops.
   *
   * @return a factory with Netty's defaults: its loops block when idle
   * @throws IllegalStateException for {@link #AUTO}: choose first
   */
  public IoHandlerFactory handlerFactory() {
    if (this == IO_URING) {
      return IoUringIoHandler.newFactory();
    }
    if (this == EPOLL) {
      return EpollIoHandler.newFactory();
    }
    concrete();
    return NioIoHandler.newFactory();
  }

  /**
   * Returns a new handler factory whose loops wait as {@code idle} decides (NIO, epoll); for a
   * transport without the hook (see {@link #idleUnsupported()}) the plain factory: its loops block.
   *
   * @param idle makes each loop's strategy, e.g. a {@link WaitSelectStrategyFactory}; not null
   * @return a new factory; io_uring's ignores {@code idle}
   * @throws IllegalStateException for {@link #AUTO}: choose first
   */
  public IoHandlerFactory handlerFactory(SelectStrategyFactory idle) {
    Objects.requireNonNull(idle, "idle");
    if (this == EPOLL) {
      return EpollIoHandler.newFactory(0, idle); // 0: Netty's default, a growing array
    }
    if (this == IO_URING) {
      return IoUringIoHandler.newFactory();
    }
    concrete();
    return NioIoHandler.newFactory(SelectorProvider.provider(), idle);
  }

  /**
   * Returns why this transport's loops cannot wait other than by blocking, or empty when Netty
   * gives it a {@code SelectStrategy} hook (NIO, epoll).
   *
   * @return the reason for {@link #IO_URING}; empty for the others, {@link #AUTO} included
   */
  public Optional<String> idleUnsupported() {
    return this == IO_URING
        ? Optional.of(
            "Netty 4.2's io_uring handler has no SelectStrategy hook (IoUringIoHandlerConfig"
                + " offers none): its loop always blocks in io_uring_enter")
        : Optional.empty();
  }

  /**
   * Returns the server channel class for {@code ServerBootstrap.channel(...)}.
   *
   * @return this transport's {@code ServerSocketChannel} implementation
   * @throws IllegalStateException for {@link #AUTO}: choose first
   */
  public Class<? extends ServerSocketChannel> serverChannel() {
    if (this == IO_URING) {
      return IoUringServerSocketChannel.class;
    }
    if (this == EPOLL) {
      return EpollServerSocketChannel.class;
    }
    concrete();
    return NioServerSocketChannel.class;
  }

  /**
   * Returns the client channel class for {@code Bootstrap.channel(...)}.
   *
   * @return this transport's {@code SocketChannel} implementation
   * @throws IllegalStateException for {@link #AUTO}: choose first
   */
  public Class<? extends SocketChannel> socketChannel() {
    if (this == IO_URING) {
      return IoUringSocketChannel.class;
    }
    if (this == EPOLL) {
      return EpollSocketChannel.class;
    }
    concrete();
    return NioSocketChannel.class;
  }

  /**
   * Parses {@code auto}, {@code io_uring} (or {@code iouring}), {@code epoll}, {@code nio}, in any
   * case.
   *
   * @param name the name, {@code -} or {@code _} between words, blanks around ignored; not null
   * @return the transport named
   * @throws IllegalArgumentException naming the value and the accepted names
   */
  public static Transport parse(String name) {
    String n = name.strip().toUpperCase(Locale.ROOT).replace('-', '_');
    if (n.equals("IOURING")) {
      return IO_URING;
    }
    for (Transport t : values()) {
      if (t.name().equals(n)) {
        return t;
      }
    }
    throw new IllegalArgumentException(
        "transport: " + name + " (expected: auto, io_uring, epoll or nio)");
  }

  /**
   * Refuses {@link #AUTO}, which has no factory or channel. (No {@code switch} on this enum here:
   * javac compiles one to a class of its own, its switch map, one more class on the way to the pin;
   * docs/ARCHITECTURE.md counts them.)
   */
  private void concrete() {
    if (this == AUTO) {
      throw new IllegalStateException(
          "transport: AUTO (expected: a concrete transport; use TransportChoice.choose(AUTO))");
    }
  }
}
