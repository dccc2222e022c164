package io.github.affinitykit.netty;

import io.netty.util.concurrent.DefaultEventExecutor;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.MultithreadEventExecutorGroup;
import io.netty.util.concurrent.ThreadPerTaskExecutor;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * A Netty {@code EventExecutorGroup} of ordered single-thread executors, executor <i>i</i> pinned
 * to planned CPU <i>i</i>: the "business" executor of a server, for handlers added with {@code
 * pipeline.addLast(group, handler)}. Pinning works as in {@link PinnedIoEventLoopGroup}.
 *
 * <p>Thread safety: as any Netty executor group; {@link #assignments()} may be read from any thread
 * at any time.
 */
public final class PinnedEventExecutorGroup extends MultithreadEventExecutorGroup {
  private final LoopPinning pinning;

  private PinnedEventExecutorGroup(LoopPinning pinning, Executor executor) {
    super(pinning.size(), executor, new Object[] {pinning});
    this.pinning = pinning;
    terminationFuture().addListener(done -> pinning.release());
  }

  /**
   * Creates {@code threads} executors with Netty's {@code DefaultThreadFactory(name)} threads,
   * pinned as {@code spec} says.
   *
   * @throws IllegalArgumentException if {@code threads} is not positive or {@code spec} names CPUs
   *     this process may not use
   * @throws IllegalStateException if an executor gets no CPU and the run-out policy is FAIL
   */
  public static PinnedEventExecutorGroup create(String name, int threads, PinningSpec spec) {
    Objects.requireNonNull(name, "name");
    LoopPinning pinning = LoopPinning.plan(name, threads, spec);
    try {
      return new PinnedEventExecutorGroup(
          pinning, new ThreadPerTaskExecutor(new DefaultThreadFactory(name)));
    } catch (RuntimeException | Error e) {
      pinning.release();
      throw e;
    }
  }

  @Override
  protected EventExecutor newChild(Executor executor, Object... args) {
    LoopPinning p = (LoopPinning) args[0];
    return new DefaultEventExecutor(this, p.wrap(p.nextChild(), executor));
  }

  /** Returns the group's name. */
  public String name() {
    return pinning.name();
  }

  /** Returns where each executor runs, in index order. */
  public List<LoopAssignment> assignments() {
    return pinning.assignments();
  }

  @Override
  public String toString() {
    return "PinnedEventExecutorGroup[" + name() + ", " + assignments() + "]";
  }
}
