package io.github.affinitykit.netty;

import io.netty.channel.IoEventLoop;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SingleThreadIoEventLoop;
import io.netty.util.concurrent.DefaultEventExecutorChooserFactory;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutorChooserFactory;
import io.netty.util.concurrent.ThreadPerTaskExecutor;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;

/**
 * A Netty 4.2 {@link MultiThreadIoEventLoopGroup} whose loop <i>i</i> always runs on planned CPU
 * <i>i</i>: whatever order the loops start in (Netty starts them lazily, as channels register), and
 * again when Netty resumes a suspended loop on a new thread. Works with any {@link
 * IoHandlerFactory}: NIO, epoll, io_uring.
 *
 * <pre>{@code
 * // was: new MultiThreadIoEventLoopGroup(4, NioIoHandler.newFactory())
 * PinnedIoEventLoopGroup workers =
 *     PinnedIoEventLoopGroup.create("worker", 4, NioIoHandler.newFactory(), PinningSpec.defaults(kit));
 * }</pre>
 *
 * <p>The CPUs are planned and reserved when the group is created (see {@link PinningSpec}) and held
 * until the group has terminated, then freed. Each loop's executor is wrapped so that the thread it
 * starts binds itself to the loop's CPU before the loop runs; threads still come from Netty's
 * {@link DefaultThreadFactory} (or yours), so they stay {@code FastThreadLocalThread}s. Loops that
 * get no CPU follow the run-out policy and are reported, never silently pinned to the wrong CPU; an
 * unpinned loop gets the process's CPUs, not its creator's.
 *
 * <p>Thread safety: as any Netty event loop group; {@link #assignments()} may be read from any
 * thread at any time.
 *
 * <p>io_uring: Netty's default io_uring ring is single-issuer and never suspends its loop, so
 * resume-on-a-new-thread happens there only with {@code
 * IoUringIoHandlerConfig.setSingleIssuer(false)} (which the tests use to check re-pinning on every
 * transport).
 */
public final class PinnedIoEventLoopGroup extends MultiThreadIoEventLoopGroup {
  private final LoopPinning pinning;

  private PinnedIoEventLoopGroup(
      LoopPinning pinning,
      Executor executor,
      IoHandlerFactory f,
      EventExecutorChooserFactory chooser) {
    super(pinning.size(), executor, f, chooser, new Object[] {pinning});
    this.pinning = pinning;
    terminationFuture().addListener(done -> pinning.release());
  }

  /**
   * Creates {@code loops} loops with Netty's {@code DefaultThreadFactory(name)} threads, pinned as
   * {@code spec} says.
   *
   * @throws IllegalArgumentException if {@code loops} is not positive or {@code spec} names CPUs
   *     this process may not use
   * @throws IllegalStateException if a loop gets no CPU and the run-out policy is FAIL
   */
  public static PinnedIoEventLoopGroup create(
      String name, int loops, IoHandlerFactory factory, PinningSpec spec) {
    Objects.requireNonNull(name, "name");
    return create(name, loops, new DefaultThreadFactory(name), factory, spec);
  }

  /**
   * Creates {@code loops} loops whose threads come from {@code threads} (keep it a Netty {@code
   * DefaultThreadFactory}, or one making {@code FastThreadLocalThread}s, for Netty's allocator
   * caches), pinned as {@code spec} says.
   *
   * @throws IllegalArgumentException if {@code loops} is not positive or {@code spec} names CPUs
   *     this process may not use
   * @throws IllegalStateException if a loop gets no CPU and the run-out policy is FAIL
   */
  public static PinnedIoEventLoopGroup create(
      String name, int loops, ThreadFactory threads, IoHandlerFactory factory, PinningSpec spec) {
    return create(name, loops, threads, factory, DefaultEventExecutorChooserFactory.INSTANCE, spec);
  }

  /**
   * As {@link #create(String, int, ThreadFactory, IoHandlerFactory, PinningSpec)}, with Netty's
   * {@code chooser}: an {@code AutoScalingEventExecutorChooserFactory} suspends idle loops and
   * resumes them on new threads, which pin themselves to their loop's CPU again.
   *
   * @throws IllegalArgumentException if {@code loops} is not positive or {@code spec} names CPUs
   *     this process may not use
   * @throws IllegalStateException if a loop gets no CPU and the run-out policy is FAIL
   */
  public static PinnedIoEventLoopGroup create(
      String name,
      int loops,
      ThreadFactory threads,
      IoHandlerFactory factory,
      EventExecutorChooserFactory chooser,
      PinningSpec spec) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(threads, "threads");
    Objects.requireNonNull(factory, "factory");
    Objects.requireNonNull(chooser, "chooser");
    LoopPinning pinning = LoopPinning.plan(name, loops, spec);
    try {
      return new PinnedIoEventLoopGroup(
          pinning, new ThreadPerTaskExecutor(threads), factory, chooser);
    } catch (RuntimeException | Error e) {
      pinning.release();
      throw e;
    }
  }

  @Override
  protected IoEventLoop newChild(Executor executor, IoHandlerFactory factory, Object... args) {
    LoopPinning p = (LoopPinning) args[0];
    return new SingleThreadIoEventLoop(this, p.wrap(p.nextChild(), executor), factory);
  }

  /** Returns the group's name: its loops are reported as {@code name-0, name-1, ...}. */
  public String name() {
    return pinning.name();
  }

  /** Returns where each loop runs, in loop order (loop {@code i} is the {@code i}-th child). */
  public List<LoopAssignment> assignments() {
    return pinning.assignments();
  }

  @Override
  public String toString() {
    return "PinnedIoEventLoopGroup[" + name() + ", " + assignments() + "]";
  }
}
