package io.github.affinitykit.netty.gateway;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Serves {@code /metrics} text without rendering it on an event loop, and at most once a second: a
 * render (which scans {@code /proc/self/task} and every meter) runs on a thread of its own, {@code
 * gateway-metrics}; its text is kept for {@link #FRESH} after the render began, and every scrape in
 * that time, or while the render runs, gets that same text (the same future). A render that failed
 * is the answer until it is stale too.
 *
 * <p>Thread safety: {@link #text()} may be called from any thread; renders never overlap.
 */
final class MetricsScrapes implements AutoCloseable {
  /** How long a rendered text is served again: renders start at least this far apart. */
  static final Duration FRESH = Duration.ofSeconds(1);

  private final Supplier<String> render;
  private final Executor executor;
  private final Optional<ExecutorService> owned;
  private final LongSupplier nanoTime;
  private CompletableFuture<String> latest; // guarded by this
  private long startedNs; // guarded by this

  private MetricsScrapes(
      Supplier<String> render,
      Executor executor,
      Optional<ExecutorService> owned,
      LongSupplier nanoTime) {
    this.render = Objects.requireNonNull(render, "render");
    this.executor = Objects.requireNonNull(executor, "executor");
    this.owned = owned;
    this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
  }

  /**
   * Renders with {@code render} ({@link MetricsText#render}) on a daemon thread of its own; {@link
   * #close()} stops it.
   */
  static MetricsScrapes onOwnThread(Supplier<String> render) {
    ExecutorService thread =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "gateway-metrics");
              t.setDaemon(true);
              return t;
            });
    return new MetricsScrapes(render, thread, Optional.of(thread), System::nanoTime);
  }

  /**
   * Renders with {@code render} on {@code executor}, timed by {@code nanoTime} (handler tests: the
   * calling thread and their own clock).
   */
  static MetricsScrapes on(Executor executor, Supplier<String> render, LongSupplier nanoTime) {
    return new MetricsScrapes(render, executor, Optional.empty(), nanoTime);
  }

  /**
   * The text a scrape gets: the one rendered (or being rendered) less than {@link #FRESH} ago, or a
   * new render started now; complete at once when fresh.
   */
  synchronized CompletableFuture<String> text() {
    long now = nanoTime.getAsLong();
    if (latest != null && (!latest.isDone() || now - startedNs < FRESH.toNanos())) {
      return latest;
    }
    startedNs = now;
    try {
      latest = CompletableFuture.supplyAsync(render, executor);
    } catch (RejectedExecutionException e) { // closed: the gateway is stopping
      latest = CompletableFuture.failedFuture(e);
    }
    return latest;
  }

  /** Stops the rendering thread (a render in progress ends with it). */
  @Override
  public void close() {
    owned.ifPresent(ExecutorService::shutdownNow);
  }
}
