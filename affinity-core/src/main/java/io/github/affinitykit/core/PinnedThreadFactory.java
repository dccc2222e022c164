package io.github.affinitykit.core;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.placement.Placement;
import io.github.affinitykit.core.placement.RunOutPolicy;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A {@link ThreadFactory} whose threads pin themselves to planned CPUs before their task runs: a
 * one-line migration from OpenHFT's {@code AffinityThreadFactory}. {@link #newThread} reserves the
 * CPU (so that {@link RunOutPolicy#FAIL} throws there); the thread binds itself when it starts.
 * Pinning problems never kill the thread: they show in {@link #assignments()}.
 *
 * <p>Thread safety: safe for concurrent use; {@link #assignments()} may be read at any time.
 */
public final class PinnedThreadFactory implements ThreadFactory, AutoCloseable {
  private static final System.Logger LOG = System.getLogger(PinnedThreadFactory.class.getName());

  private final CpuGroup group;
  private final boolean daemon;
  private final Optional<ThreadFactory> delegate;
  private final AtomicBoolean warned = new AtomicBoolean();

  /**
   * OpenHFT parity: threads {@code name-0, name-1, ...}, daemon, on {@link AffinityKit#shared()}.
   *
   * @param name the group's name, which prefixes the threads' names
   * @param strategies {@code AffinityStrategies} values, tried in order for each later thread
   */
  public PinnedThreadFactory(String name, Enum<?>... strategies) {
    this(new Builder(AffinityKit.shared().group(name).strategies(strategies)));
  }

  /**
   * Threads {@code name-0, name-1, ...}, daemon, on {@link AffinityKit#shared()}.
   *
   * @param name the group's name, which prefixes the threads' names
   * @param placements tried in order for each later thread; none means {@link Placement#ANY}
   */
  public PinnedThreadFactory(String name, Placement... placements) {
    this(new Builder(AffinityKit.shared().group(name).placements(placements)));
  }

  private PinnedThreadFactory(Builder b) {
    this.daemon = b.daemon;
    this.delegate = b.delegate;
    this.group = b.group.build();
  }

  /**
   * {@return a builder of a factory whose threads are the members of the group {@code group}
   * configures, named {@code <group name>-<n>}}
   *
   * @param group the group's configuration; {@link Builder#build()} builds the group
   */
  public static Builder builder(CpuGroupBuilder group) {
    return new Builder(group);
  }

  /**
   * Creates a thread that pins itself to the next planned CPU when started.
   *
   * @throws IllegalStateException if the pool is exhausted and the run-out policy is {@link
   *     RunOutPolicy#FAIL}, or the factory is closed
   */
  @Override
  public Thread newThread(Runnable task) {
    Objects.requireNonNull(task, "task");
    Seat seat = group.join();
    warnIfUnpinned(seat);
    Runnable pinned = seat.boundOnce(task);
    Thread t =
        delegate.map(d -> d.newThread(pinned)).orElseGet(() -> new Thread(pinned, seat.member()));
    if (delegate.isEmpty()) {
      t.setDaemon(daemon);
    }
    return t;
  }

  /**
   * Pins the calling thread as this factory's next thread (a Disruptor producer, a main loop):
   * planned, reserved and listed like the factory's own. Never throws for a platform or kernel
   * refusal: the lease says what happened. Closing the lease restores the thread's mask.
   *
   * @return the lease to close when the thread leaves the group; never null
   * @throws IllegalStateException if the pool is exhausted and the run-out policy is {@link
   *     RunOutPolicy#FAIL}, or the factory is closed
   */
  public CpuLease pinCurrentThread() {
    Seat seat = group.join();
    warnIfUnpinned(seat);
    return seat.bindOnce();
  }

  private void warnIfUnpinned(Seat seat) {
    if (seat.status() == LeaseStatus.UNPINNED && warned.compareAndSet(false, true)) {
      LOG.log(Level.WARNING, "{0}; further threads also run unpinned", seat.reason());
    }
  }

  /** {@return where every thread created and not yet ended runs; an ended thread is forgotten} */
  public List<Assignment> assignments() {
    return group.assignments();
  }

  /**
   * {@return the pool's runtime isolation, whose reason says whether it is in force} Made with the
   * first thread if asked ({@link CpuGroupBuilder#isolate}).
   */
  public Optional<CpuIsolation> isolation() {
    return group.isolation();
  }

  CpuSet held() { // the CPUs reserved for its threads, started or not
    return group.held();
  }

  /** Creates no more threads; frees the CPUs of threads never started now, the others' at end. */
  @Override
  public void close() {
    group.close();
  }

  /**
   * Configures how a {@link PinnedThreadFactory} makes its threads (where they run is the group's).
   *
   * <p>Thread safety: not thread-safe; build on one thread.
   */
  public static final class Builder {
    private final CpuGroupBuilder group;
    private boolean daemon = true;
    private Optional<ThreadFactory> delegate = Optional.empty();

    private Builder(CpuGroupBuilder group) {
      this.group = Objects.requireNonNull(group, "group");
    }

    /**
     * Whether threads are daemons (default true, as OpenHFT's).
     *
     * @param daemon true for daemon threads; not applied to a {@link #delegate(ThreadFactory)}'s
     * @return this builder
     */
    public Builder daemon(boolean daemon) {
      this.daemon = daemon;
      return this;
    }

    /**
     * Creates threads with {@code factory} (e.g. Netty's {@code DefaultThreadFactory}), which names
     * them and sets daemon-ness.
     *
     * @param factory the factory that makes each thread around the pinning task
     * @return this builder
     */
    public Builder delegate(ThreadFactory factory) {
      this.delegate = Optional.of(Objects.requireNonNull(factory, "factory"));
      return this;
    }

    /**
     * Builds the group and the factory over it.
     *
     * @return a new factory; it reserves nothing before its first thread
     * @throws IllegalArgumentException if the group names CPUs this process may not use
     */
    public PinnedThreadFactory build() {
      return new PinnedThreadFactory(this);
    }
  }
}
