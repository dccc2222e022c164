package io.github.affinitykit.netty;

import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.Seat;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SingleThreadIoEventLoop;
import io.netty.util.concurrent.DefaultEventExecutorChooserFactory;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutorChooserFactory;
import io.netty.util.concurrent.ThreadPerTaskExecutor;
import java.lang.System.Logger.Level;
import java.util.Iterator;
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
 * CpuGroup cpus = kit.group("worker").placements(DIFFERENT_CORE, ANY).build(); // or .cpus(3, 2)
 * PinnedIoEventLoopGroup workers = PinnedIoEventLoopGroup.create(4, NioIoHandler.newFactory(), cpus);
 * }</pre>
 *
 * <p>The loops take one {@link Seat} each of a {@link CpuGroup} when the group is created ({@link
 * CpuGroup#joinAll}: planned and reserved there) and hold them until the group has terminated; then
 * the group closes the {@code CpuGroup}, which it owns, and every CPU is free. Each loop's executor
 * is wrapped ({@link Seat#bound}) so that the thread it starts binds itself to the loop's CPU
 * before the loop runs; threads still come from Netty's {@link DefaultThreadFactory} (or yours), so
 * they stay {@code FastThreadLocalThread}s. Loops that get no CPU follow the run-out policy and are
 * reported, never silently pinned to the wrong CPU; an unpinned loop gets the process's CPUs, not
 * its creator's.
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
  private static final System.Logger LOG = System.getLogger(PinnedIoEventLoopGroup.class.getName());

  private final CpuGroup group;
  private final List<Seat> seats;

  private PinnedIoEventLoopGroup(
      CpuGroup group,
      List<Seat> seats,
      Executor executor,
      IoHandlerFactory f,
      EventExecutorChooserFactory chooser) {
    super(seats.size(), executor, f, chooser, new Object[] {seats.iterator()});
    this.group = group;
    this.seats = seats;
    terminationFuture().addListener(done -> release(group));
  }

  /**
   * Creates {@code loops} loops with Netty's {@code DefaultThreadFactory(group.name())} threads, on
   * seats of {@code group} (a fresh group, which this one owns from now on).
   *
   * @param loops the number of loops, > 0
   * @param factory the transport's handler factory, e.g. {@code NioIoHandler.newFactory()}
   * @param group the CPUs to seat the loops on; closed when the loops terminate, or if this fails
   * @return the group, every CPU reserved; each loop's thread starts on its first channel or task
   * @throws IllegalArgumentException if {@code loops} is not positive, or {@code group} has
   *     explicit CPUs and {@code loops} is not their number
   * @throws IllegalStateException if a loop gets no CPU and the run-out policy is FAIL
   */
  public static PinnedIoEventLoopGroup create(int loops, IoHandlerFactory factory, CpuGroup group) {
    Objects.requireNonNull(group, "group");
    return create(loops, new DefaultThreadFactory(group.name()), factory, group);
  }

  /**
   * Creates {@code loops} loops whose threads come from {@code threads} (keep it a Netty {@code
   * DefaultThreadFactory}, or one making {@code FastThreadLocalThread}s, for Netty's allocator
   * caches), on seats of {@code group}.
   *
   * @param loops the number of loops, > 0
   * @param threads makes each loop's thread (again when Netty resumes a loop); not null
   * @param factory the transport's handler factory, e.g. {@code NioIoHandler.newFactory()}
   * @param group the CPUs to seat the loops on; closed when the loops terminate, or if this fails
   * @return the group, every CPU reserved; each loop's thread starts on its first channel or task
   * @throws IllegalArgumentException if {@code loops} is not positive, or {@code group} has
   *     explicit CPUs and {@code loops} is not their number
   * @throws IllegalStateException if a loop gets no CPU and the run-out policy is FAIL
   */
  public static PinnedIoEventLoopGroup create(
      int loops, ThreadFactory threads, IoHandlerFactory factory, CpuGroup group) {
    return create(loops, threads, factory, DefaultEventExecutorChooserFactory.INSTANCE, group);
  }

  /**
   * As {@link #create(int, ThreadFactory, IoHandlerFactory, CpuGroup)}, with Netty's {@code
   * chooser}: an {@code AutoScalingEventExecutorChooserFactory} suspends idle loops and resumes
   * them on new threads, which pin themselves to their loop's CPU again.
   *
   * @param loops the number of loops, > 0
   * @param threads makes each loop's thread (again when Netty resumes a loop); not null
   * @param factory the transport's handler factory, e.g. {@code NioIoHandler.newFactory()}
   * @param chooser picks a loop for each new channel; not null
   * @param group the CPUs to seat the loops on; closed when the loops terminate, or if this fails
   * @return the group, every CPU reserved; each loop's thread starts on its first channel or task
   * @throws IllegalArgumentException if {@code loops} is not positive, or {@code group} has
   *     explicit CPUs and {@code loops} is not their number
   * @throws IllegalStateException if a loop gets no CPU and the run-out policy is FAIL
   */
  public static PinnedIoEventLoopGroup create(
      int loops,
      ThreadFactory threads,
      IoHandlerFactory factory,
      EventExecutorChooserFactory chooser,
      CpuGroup group) {
    Objects.requireNonNull(threads, "threads");
    Objects.requireNonNull(factory, "factory");
    Objects.requireNonNull(chooser, "chooser");
    List<Seat> seats = seat(group, loops);
    try {
      return new PinnedIoEventLoopGroup(
          group, seats, new ThreadPerTaskExecutor(threads), factory, chooser);
    } catch (RuntimeException | Error e) {
      release(group);
      throw e;
    }
  }

  /**
   * Takes a seat of {@code group} for each of {@code loops} loops (closing the group if one cannot
   * join) and warns once when some run unpinned.
   */
  static List<Seat> seat(CpuGroup group, int loops) {
    Objects.requireNonNull(group, "group");
    List<Seat> seats;
    try {
      seats = group.joinAll(loops);
    } catch (RuntimeException e) {
      group.close();
      throw e;
    }
    long unpinned = seats.stream().filter(s -> s.status() == LeaseStatus.UNPINNED).count();
    if (!group.isUnpinned() && unpinned > 0) {
      LOG.log(
          Level.WARNING,
          "{0}: {1} of {2} loops unpinned: {3}",
          group.name(),
          unpinned,
          loops,
          seats.get(loops - 1).reason());
    }
    return seats;
  }

  /**
   * Wraps the executor of the next child: Netty creates the children in index order, from its
   * constructor, so child {@code i} takes the {@code i}-th seat of the iterator in {@code args}.
   */
  static Executor bound(Object[] args, Executor executor) {
    Seat seat = (Seat) ((Iterator<?>) args[0]).next();
    return task -> executor.execute(seat.bound(task));
  }

  /**
   * Frees the group's CPUs once all its loops have terminated: at once, not when each thread gets
   * round to closing its lease (Netty completes the termination future before that).
   */
  static void release(CpuGroup group) {
    group.close();
    group.seats().forEach(Seat::close);
  }

  @Override
  protected IoEventLoop newChild(Executor executor, IoHandlerFactory factory, Object... args) {
    return new SingleThreadIoEventLoop(this, bound(args, executor), factory);
  }

  /**
   * Returns the group's name: its loops are reported as {@code name-0, name-1, ...}.
   *
   * @return the {@code CpuGroup}'s name, e.g. {@code worker}
   */
  public String name() {
    return group.name();
  }

  /**
   * Returns where each loop runs, in loop order (loop {@code i} is the {@code i}-th child).
   *
   * @return a new snapshot per call, one entry per loop
   */
  public List<LoopAssignment> assignments() {
    return LoopAssignment.of(group.name(), seats);
  }

  @Override
  public String toString() {
    return "PinnedIoEventLoopGroup[" + name() + ", " + assignments() + "]";
  }
}
