package io.github.affinitykit.bench.wakeup;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * The Java analogues of the seed's wake-up mechanisms, as {@link Signal}s.
 *
 * <p>Thread safety: see {@link Signal}.
 */
final class Signals {
  private Signals() {}

  static Signal of(String name) throws IOException {
    return switch (name) {
      case "condvar" -> new CondVar();
      case "sleep" -> new SleepPoll();
      case "pipe" -> pipe();
      case "socketpair" -> socketPair();
      case "eventfd" -> new SelectorWakeup();
      case "park" -> new Park();
      case "busyspin" -> new BusySpin();
      default -> throw new IllegalArgumentException("signal: " + name);
    };
  }

  /** {@code ReentrantLock} + {@code Condition}: the condition variable. */
  private static final class CondVar implements Signal {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition ready = lock.newCondition();

    @Override
    public void signal() {
      lock.lock();
      try {
        ready.signal();
      } finally {
        lock.unlock();
      }
    }

    @Override
    public void await(BooleanSupplier cond) throws InterruptedException {
      lock.lock();
      try {
        while (!cond.getAsBoolean()) {
          ready.await();
        }
      } finally {
        lock.unlock();
      }
    }
  }

  /** Polling with the shortest sleep the JVM offers ({@code parkNanos(1 µs)}, timer slack). */
  private static final class SleepPoll implements Signal {
    @Override
    public void signal() {}

    @Override
    public void await(BooleanSupplier cond) {
      LockSupport.parkNanos(1_000);
    }
  }

  /** {@code LockSupport.park/unpark}. */
  private static final class Park implements Signal {
    private volatile Thread consumer;

    @Override
    public void consumer(Thread t) {
      consumer = t;
    }

    @Override
    public void signal() {
      LockSupport.unpark(consumer);
    }

    @Override
    public void await(BooleanSupplier cond) {
      if (!cond.getAsBoolean()) {
        LockSupport.park(this);
      }
    }
  }

  /** A spinning consumer: no wake-up at all. */
  private static final class BusySpin implements Signal {
    @Override
    public void signal() {}

    @Override
    public void await(BooleanSupplier cond) {
      Thread.onSpinWait();
    }
  }

  /** {@code Selector.wakeup()}: the JDK's epoll selector wakes through an eventfd on Linux. */
  private static final class SelectorWakeup implements Signal {
    private final Selector selector;

    SelectorWakeup() throws IOException {
      selector = Selector.open();
    }

    @Override
    public void signal() {
      selector.wakeup();
    }

    @Override
    public void await(BooleanSupplier cond) throws IOException {
      if (!cond.getAsBoolean()) {
        selector.select();
      }
    }

    @Override
    public void close() throws IOException {
      selector.close();
    }
  }

  private static Signal pipe() throws IOException {
    Pipe p = Pipe.open();
    return new ByteChannelSignal(p.sink(), p.source(), null);
  }

  private static Signal socketPair() throws IOException {
    Path dir = Files.createTempDirectory("wakeup");
    Path socket = dir.resolve("s");
    try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      server.bind(UnixDomainSocketAddress.of(socket));
      SocketChannel client = SocketChannel.open(UnixDomainSocketAddress.of(socket));
      SocketChannel accepted = server.accept();
      return new ByteChannelSignal(
          client,
          accepted,
          () -> {
            Files.deleteIfExists(socket);
            Files.deleteIfExists(dir);
          });
    }
  }

  /** A byte per signal through a pipe or an AF_UNIX socket pair; the consumer blocks in read. */
  private static final class ByteChannelSignal implements Signal {
    private final WritableByteChannel out;
    private final ReadableByteChannel in;
    private final Cleanup cleanup;
    private final ByteBuffer one = ByteBuffer.allocateDirect(1);
    private final ByteBuffer drain = ByteBuffer.allocateDirect(4096);

    interface Cleanup {
      void run() throws IOException;
    }

    ByteChannelSignal(WritableByteChannel out, ReadableByteChannel in, Cleanup cleanup) {
      this.out = out;
      this.in = in;
      this.cleanup = cleanup;
    }

    @Override
    public void signal() throws IOException {
      one.clear();
      out.write(one);
    }

    @Override
    public void await(BooleanSupplier cond) throws IOException {
      if (!cond.getAsBoolean()) {
        drain.clear();
        in.read(drain);
      }
    }

    @Override
    public void close() throws IOException {
      out.close();
      in.close();
      if (cleanup != null) {
        cleanup.run();
      }
    }
  }
}
