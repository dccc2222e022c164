package io.github.affinitykit.netty.gateway;

import io.github.affinitykit.isolation.Isolation;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Puts the machine back before the JVM halts on a {@link VirtualMachineError}: {@link Runtime#halt}
 * runs no shutdown hook, so the isolation's own hook would never undo it. A daemon thread started
 * with the gateway waits for the signal; on it, it closes every isolation {@link #watch watched}
 * (cgroups, IRQ affinities, kernel files, masks put back; the CPUs freed). The fatal path waits for
 * it at most {@link #bound()} (5 s by default), then halts anyway: an undo that cannot finish in
 * time (a stuck kernel write, an isolation whose lock another thread holds) is left to the journal,
 * which the next start or {@code affinity-cli release} undoes.
 *
 * <p>What restoring needs is made in advance: the thread, its latches, and a heap reserve of
 * {@value #RESERVE_BYTES} bytes that {@link #restore()} drops just before the undo, so that a heap
 * filled with live objects still has room for the undo's few allocations (its reads of {@code
 * /proc} and {@code /sys}, the release's report).
 *
 * <p>Thread safety: every method may be called from any thread; {@link #restore()} runs the undo
 * once, later callers wait for the same one.
 */
final class FatalRestorer {
  /** The longest the fatal path waits for the undo by default. */
  static final Duration BOUND = Duration.ofSeconds(5);

  /** The heap reserve dropped before the undo. */
  static final int RESERVE_BYTES = 4 << 20;

  /** What {@link #restore()} achieved. */
  enum Outcome {
    /** No isolation was active: nothing to undo. */
    NOTHING,
    /** Every active isolation was undone and its journal deleted. */
    RESTORED,
    /** The undo ran but left something (journal kept for {@code release}), or failed. */
    LEFT,
    /** The undo did not finish within the bound: the journal is left for {@code release}. */
    TIMED_OUT
  }

  private final List<Isolation> watched = new CopyOnWriteArrayList<>();
  private final CountDownLatch fatal = new CountDownLatch(1);
  private final CountDownLatch done = new CountDownLatch(1);
  private volatile Duration bound;
  private volatile boolean clean = true;

  @SuppressWarnings("unused") // only held, so that dropping it frees heap on the fatal path
  private volatile byte[] reserve = new byte[RESERVE_BYTES];

  private FatalRestorer(Duration bound) {
    this.bound = Objects.requireNonNull(bound, "bound");
  }

  /** A restorer whose thread is started now, waiting; the fatal path waits {@link #BOUND}. */
  static FatalRestorer start() {
    return start(BOUND);
  }

  /** As {@link #start()}, waiting at most {@code bound} (tests shorten it). */
  static FatalRestorer start(Duration bound) {
    FatalRestorer r = new FatalRestorer(bound);
    Thread t = new Thread(r::await, "gateway-fatal-restorer");
    t.setDaemon(true); // parked for the JVM's life; never keeps it alive
    t.start();
    return r;
  }

  /** How long {@link #restore()} waits for the undo. */
  Duration bound() {
    return bound;
  }

  /** Undoes {@code isolation} on the fatal path if it is still active then. */
  void watch(Isolation isolation) {
    watched.add(Objects.requireNonNull(isolation, "isolation"));
  }

  /** As {@link #watch(Isolation)}, the fatal path waiting at most {@code bound} from now on. */
  void watch(Isolation isolation, Duration bound) {
    this.bound = Objects.requireNonNull(bound, "bound");
    watch(isolation);
  }

  /**
   * Undoes every watched isolation still active, waiting at most {@link #bound()}; called on the
   * fatal path, before the halt.
   */
  Outcome restore() {
    if (watched.stream().noneMatch(Isolation::isActive)) {
      return Outcome.NOTHING;
    }
    reserve = null;
    fatal.countDown();
    try {
      if (!done.await(bound.toNanos(), TimeUnit.NANOSECONDS)) {
        return Outcome.TIMED_OUT;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Outcome.TIMED_OUT;
    }
    return clean ? Outcome.RESTORED : Outcome.LEFT;
  }

  /** The thread: parked until the fatal path signals, then the undo. */
  private void await() {
    try {
      fatal.await();
      for (Isolation iso : watched) {
        iso.close();
        clean &= iso.released().journal().isEmpty();
      }
    } catch (InterruptedException | RuntimeException | Error e) {
      clean = false; // an undo that threw (out of memory again) left the journal to release
    } finally {
      done.countDown();
    }
  }
}
