package io.github.affinitykit.core;

import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import net.openhft.affinity.AffinityStrategy;

/**
 * A {@link ThreadFactory} whose threads pin themselves to planned CPUs before their task runs: a
 * one-line migration from OpenHFT's {@code AffinityThreadFactory}, evaluated against the real
 * topology, honest about run-out, and releasing each CPU when its thread ends.
 *
 * <pre>{@code
 * ThreadFactory f = new PinnedThreadFactory("worker", AffinityStrategies.DIFFERENT_CORE,
 *     AffinityStrategies.ANY);
 * }</pre>
 *
 * <p>{@link #newThread} plans and reserves the CPU (so that run-out policy {@link
 * RunOutPolicy#FAIL} can throw there); the thread binds itself when it starts, then runs the task;
 * pinning problems never kill the thread, they show in {@link #assignments()}. A thread that is not
 * pinned has its mask reset to the process's CPUs, so it never silently inherits the CPU of a
 * pinned creator. Reservations of threads created but never started are freed by {@link #close()}.
 *
 * <p>Thread safety: safe for concurrent use; {@link #assignments()} may be read at any time.
 */
public final class PinnedThreadFactory implements ThreadFactory, AutoCloseable {
  private static final System.Logger LOG = System.getLogger(PinnedThreadFactory.class.getName());

  private final FactoryState state;
  private final String name;
  private final boolean daemon;
  private final Optional<ThreadFactory> delegate;
  private final AtomicBoolean warned = new AtomicBoolean();

  /**
   * OpenHFT parity: threads {@code name-0, name-1, ...}, daemon, on {@link AffinityKit#shared()}.
   */
  public PinnedThreadFactory(String name, AffinityStrategy... strategies) {
    this(builder(name).strategies(strategies));
  }

  /** Threads {@code name-0, name-1, ...}, daemon, on {@link AffinityKit#shared()}. */
  public PinnedThreadFactory(String name, Placement... placements) {
    this(builder(name).placements(placements));
  }

  private PinnedThreadFactory(Builder b) {
    AffinityKit kit = b.kit.orElseGet(AffinityKit::shared);
    this.name = b.name;
    this.daemon = b.daemon;
    this.delegate = b.delegate;
    CpuSet pool = b.pool.orElse(kit.pool().cpus());
    if (!kit.host().reachable().containsAll(pool)) {
      throw new IllegalArgumentException(
          name
              + ": pool "
              + pool
              + " (expected: CPUs this process may use: "
              + kit.host().reachable()
              + ")");
    }
    this.state = new FactoryState(kit, pool, b.placements, b.runOut);
  }

  /** Returns a builder for a factory naming its threads {@code name-<n>}. */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /**
   * Creates a thread that pins itself to the next planned CPU when started.
   *
   * @throws IllegalStateException if the pool is exhausted and the run-out policy is {@link
   *     RunOutPolicy#FAIL}
   */
  @Override
  public Thread newThread(Runnable task) {
    Objects.requireNonNull(task, "task");
    FactoryState.Ticket ticket = state.next(name);
    warnIfUnpinned(ticket);
    Runnable pinned =
        () -> {
          CpuLease lease = state.start(ticket);
          try {
            task.run();
          } finally {
            lease.close();
            state.ended(ticket);
          }
        };
    Thread t =
        delegate
            .map(d -> d.newThread(pinned))
            .orElseGet(() -> new Thread(pinned, ticket.threadName()));
    if (delegate.isEmpty()) {
      t.setDaemon(daemon);
    }
    state.named(ticket, t.getName());
    return t;
  }

  /**
   * Pins the calling thread as this factory's next thread: for a thread the factory did not create
   * (a Disruptor producer, an application's main loop) that belongs to the same group as the
   * factory's threads. It is planned, reserved and named in {@link #assignments()} like them, by
   * the same placements and run-out policy; with {@link RunOutPolicy#SHARE} it may share a CPU with
   * them. Never throws for a platform or kernel refusal: the lease's status and reason say what
   * happened. Closing the lease (from any thread) restores the thread's previous mask and frees the
   * CPU once no other thread of this factory uses it.
   *
   * @throws IllegalStateException if the pool is exhausted and the run-out policy is {@link
   *     RunOutPolicy#FAIL}
   */
  public CpuLease pinCurrentThread() {
    FactoryState.Ticket ticket = state.next(name);
    warnIfUnpinned(ticket);
    state.named(ticket, Thread.currentThread().getName());
    return state.start(ticket, () -> state.ended(ticket));
  }

  private void warnIfUnpinned(FactoryState.Ticket ticket) {
    if (ticket.status() == LeaseStatus.UNPINNED && warned.compareAndSet(false, true)) {
      LOG.log(Level.WARNING, "{0}; further threads also run unpinned", ticket.reason());
    }
  }

  /** Returns where every thread created so far runs, in creation order. */
  public List<Assignment> assignments() {
    return state.assignments();
  }

  /**
   * Frees the reservations of threads created but never started. Started threads are unaffected.
   */
  @Override
  public void close() {
    state.releaseUnstarted();
  }

  /**
   * Configures a {@link PinnedThreadFactory}.
   *
   * <p>Thread safety: not thread-safe; build on one thread.
   */
  public static final class Builder {
    private final String name;
    private Optional<AffinityKit> kit = Optional.empty();
    private Optional<CpuSet> pool = Optional.empty();
    private boolean daemon = true;
    private List<Placement> placements = List.of(Placement.ANY);
    private RunOutPolicy runOut = RunOutPolicy.UNPINNED;
    private Optional<ThreadFactory> delegate = Optional.empty();

    private Builder(String name) {
      this.name = Objects.requireNonNull(name, "name");
    }

    /** Uses {@code kit} (host, backend, reservations); default {@link AffinityKit#shared()}. */
    public Builder kit(AffinityKit kit) {
      this.kit = Optional.of(kit);
      return this;
    }

    /** Draws CPUs from {@code cpus} instead of the kit's pool. */
    public Builder pool(CpuSet cpus) {
      this.pool = Optional.of(cpus);
      return this;
    }

    /** Whether threads are daemons (default true, as OpenHFT's). */
    public Builder daemon(boolean daemon) {
      this.daemon = daemon;
      return this;
    }

    /** Placements tried in order for each thread after the first (default {@code ANY}). */
    public Builder placements(Placement... placements) {
      this.placements = List.of(placements);
      return this;
    }

    /**
     * OpenHFT {@code AffinityStrategies} values, evaluated against our topology.
     *
     * @throws IllegalArgumentException for a custom {@link AffinityStrategy} implementation
     */
    public Builder strategies(AffinityStrategy... strategies) {
      this.placements = Placement.fromStrategies(strategies);
      return this;
    }

    /** What to do when no CPU is left (default {@link RunOutPolicy#UNPINNED}). */
    public Builder runOut(RunOutPolicy policy) {
      this.runOut = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /**
     * Creates threads with {@code factory} (e.g. Netty's {@code DefaultThreadFactory}, to keep
     * {@code FastThreadLocalThread}s); it names them and sets daemon-ness.
     */
    public Builder delegate(ThreadFactory factory) {
      this.delegate = Optional.of(factory);
      return this;
    }

    /** Builds the factory. */
    public PinnedThreadFactory build() {
      return new PinnedThreadFactory(this);
    }
  }
}
