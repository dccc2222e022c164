package io.github.affinitykit.netty;

import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.Seat;
import io.netty.util.concurrent.DefaultEventExecutor;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.MultithreadEventExecutorGroup;
import io.netty.util.concurrent.ThreadPerTaskExecutor;
import java.util.List;
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
  private final CpuGroup group;
  private final List<Seat> seats;

  private PinnedEventExecutorGroup(CpuGroup group, List<Seat> seats, Executor executor) {
    super(seats.size(), executor, new Object[] {seats.iterator()});
    this.group = group;
    this.seats = seats;
    terminationFuture().addListener(done -> PinnedIoEventLoopGroup.release(group));
  }

  /**
   * Creates {@code threads} executors with Netty's {@code DefaultThreadFactory(group.name())}
   * threads, on seats of {@code group} (a fresh group, which this one owns from now on).
   *
   * @param threads the number of executors (one thread each), > 0
   * @param group the CPUs to seat them on; closed when the executors terminate, or if this fails
   * @return the group, every CPU reserved; each executor's thread starts on its first task
   * @throws IllegalArgumentException if {@code threads} is not positive, or {@code group} has
   *     explicit CPUs and {@code threads} is not their number
   * @throws IllegalStateException if an executor gets no CPU and the run-out policy is FAIL
   */
  public static PinnedEventExecutorGroup create(int threads, CpuGroup group) {
    List<Seat> seats = PinnedIoEventLoopGroup.seat(group, threads);
    try {
      return new PinnedEventExecutorGroup(
          group, seats, new ThreadPerTaskExecutor(new DefaultThreadFactory(group.name())));
    } catch (RuntimeException | Error e) {
      PinnedIoEventLoopGroup.release(group);
      throw e;
    }
  }

  @Override
  protected EventExecutor newChild(Executor executor, Object... args) {
    return new DefaultEventExecutor(this, PinnedIoEventLoopGroup.bound(args, executor));
  }

  /**
   * Returns the group's name.
   *
   * @return the {@code CpuGroup}'s name, also the prefix of its threads' names
   */
  public String name() {
    return group.name();
  }

  /**
   * Returns where each executor runs, in index order.
   *
   * @return a new snapshot per call, one entry per executor
   */
  public List<LoopAssignment> assignments() {
    return LoopAssignment.of(group.name(), seats);
  }

  @Override
  public String toString() {
    return "PinnedEventExecutorGroup[" + name() + ", " + assignments() + "]";
  }
}
