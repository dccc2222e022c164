package io.github.affinitykit.vertx;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.Assignment;
import io.vertx.core.impl.VertxThread;
import io.vertx.core.internal.VertxBootstrap;
import io.vertx.core.spi.VertxThreadFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Vert.x's thread SPI, pinning: each of a Vert.x instance's {@code eventLoopPoolSize} event loops
 * binds itself to a CPU of its own when it starts ({@link AffinityKit#shared()}'s pool, {@code
 * DIFFERENT_CORE} then {@code ANY}, run-out as core's groups: the loop runs unpinned and says why),
 * and gives it up when it ends; worker pool threads too when asked. Every other thread Vert.x makes
 * (the acceptor, the internal blocking pool, the threads made while it closes) is confined to the
 * process's CPUs, never to the CPU of the loop that created it.
 *
 * <p>Found by {@link java.util.ServiceLoader} ({@code META-INF/services/
 * io.vertx.core.spi.VertxServiceProvider}) when this jar is on the class path: every {@code
 * Vertx.vertx()} and {@code Vertx.builder()...build()} then gets its own instance, installed unless
 * another provider installed a thread factory first. Configured, as Vert.x's providers are, by a
 * system property, {@value #PIN_PROPERTY}: {@code loops} (the default), {@code loops+workers}, or
 * {@code none} (Vert.x's own threads); the kit's own properties ({@code affinitykit.pool}, {@code
 * affinitykit.lock.dir}) choose the CPUs and the lock directory.
 *
 * <p>Which thread is an event loop is told from the name Vert.x gives it ({@code
 * vert.x-eventloop-thread-<n>}, {@code n < eventLoopPoolSize}) and the SPI's worker flag: the SPI
 * passes no role.
 *
 * <p>Thread safety: safe for concurrent use; Vert.x calls {@link #init} once, then {@link
 * #newVertxThread} from any thread; {@link #assignments()} may be read at any time.
 */
public final class PinnedVertxThreadFactory implements VertxThreadFactory {
  /** The system property that says which threads are pinned: loops, loops+workers or none. */
  public static final String PIN_PROPERTY = "affinitykit.vertx.pin";

  /** The factories Vert.x installed in this JVM whose threads have not all ended. */
  private static final Queue<PinnedVertxThreadFactory> INSTALLED = new ConcurrentLinkedQueue<>();

  private final Supplier<AffinityKit> kit;
  private final String pin;
  private volatile VertxGroups groups; // null until init installs this factory

  /**
   * The factory {@code ServiceLoader} makes: on {@link AffinityKit#shared()}, pinning what {@value
   * #PIN_PROPERTY} says.
   *
   * @throws IllegalArgumentException if {@value #PIN_PROPERTY} is set to anything else than {@code
   *     loops}, {@code loops+workers} or {@code none}
   */
  public PinnedVertxThreadFactory() {
    this(AffinityKit::shared, System.getProperty(PIN_PROPERTY, "loops"));
  }

  PinnedVertxThreadFactory(Supplier<AffinityKit> kit, String pin) {
    this.kit = Objects.requireNonNull(kit, "kit");
    this.pin = Objects.requireNonNull(pin, "pin").strip().toLowerCase(Locale.ROOT);
    if (!List.of("loops", "loops+workers", "none").contains(this.pin)) {
      throw new IllegalArgumentException(
          PIN_PROPERTY + ": " + pin + " (expected: loops, loops+workers or none)");
    }
  }

  /**
   * Installs this factory in {@code builder} unless it has a thread factory already, or pinning is
   * {@code none}; reads the event loop pool size from its options.
   *
   * @param builder the bootstrap of the Vert.x instance being built; not null
   */
  @Override
  public void init(VertxBootstrap builder) {
    if (builder.threadFactory() != null || pin.equals("none")) {
      return;
    }
    int eventLoops = builder.options().getEventLoopPoolSize();
    groups = new VertxGroups(kit.get(), eventLoops, pin.equals("loops+workers"));
    builder.threadFactory(this);
    INSTALLED.add(this);
  }

  /**
   * Creates Vert.x's thread {@code name}, which binds itself to its seat when it starts and frees
   * it when it ends; a factory not installed by {@link #init} makes Vert.x's own threads.
   *
   * @param target the thread's work; not null
   * @param name the name Vert.x gives it
   * @param worker whether it runs blocking code (a worker pool's thread)
   * @param maxExecTime the time after which the blocked-thread checker warns about one task
   * @param maxExecTimeUnit the unit of {@code maxExecTime}
   * @return the thread, not started
   */
  @Override
  public VertxThread newVertxThread(
      Runnable target, String name, boolean worker, long maxExecTime, TimeUnit maxExecTimeUnit) {
    Objects.requireNonNull(target, "target");
    VertxGroups g = groups;
    Runnable task = g == null ? target : g.seat(name, worker).boundOnce(target);
    return new VertxThread(task, name, worker, maxExecTime, maxExecTimeUnit);
  }

  /**
   * Returns where this factory's event loops (then pinned workers) run, those not yet ended.
   *
   * @return a new snapshot; empty before the first loop starts, or if this factory was not
   *     installed
   */
  public List<Assignment> assignments() {
    VertxGroups g = groups;
    return g == null ? List.of() : g.assignments();
  }

  /**
   * Returns where the event loops (then pinned workers) of every Vert.x instance of this JVM run,
   * those not yet ended: the way to a report, since {@code ServiceLoader}, not the application,
   * makes the factories.
   *
   * @return a new snapshot, in the order the instances were built
   */
  public static List<Assignment> installed() {
    INSTALLED.removeIf(f -> f.groups.ended());
    List<Assignment> all = new ArrayList<>();
    INSTALLED.forEach(f -> all.addAll(f.assignments()));
    return all;
  }
}
