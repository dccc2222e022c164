package io.github.affinitykit.audit;

import io.github.affinitykit.core.cpu.CpuSet;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * A background thread repeating {@link JvmThreads#confine()} until closed. Stops as Agrona's agent
 * runners do: flag, wake, join with a timeout, then interrupt.
 *
 * <p>Thread safety: {@link #close()} and {@link #lastReport()} may be called from any thread.
 */
final class Sweeper implements AutoCloseable {
  private final CountDownLatch stop = new CountDownLatch(1);
  private final AtomicReference<ConfineReport> last = new AtomicReference<>();
  private final AtomicReference<RuntimeException> error = new AtomicReference<>();
  private final Thread thread;

  Sweeper(Supplier<ConfineReport> sweep, Duration period) {
    Objects.requireNonNull(sweep, "sweep");
    if (period.isNegative() || period.isZero()) {
      throw new IllegalArgumentException("period: " + period + " (expected: > 0)");
    }
    long periodNs = period.toNanos();
    thread =
        new Thread(
            () -> {
              try {
                do {
                  last.set(sweep.get());
                } while (!stop.await(periodNs, TimeUnit.NANOSECONDS));
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } catch (RuntimeException e) {
                error.set(e);
              }
            },
            "affinitykit-sweeper");
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * Returns the report of the latest sweep, or an empty report before the first one ends.
   *
   * @return the latest report; before the first, one with empty housekeeping and empty lists
   * @throws IllegalStateException once a sweep has thrown (the sweeper has stopped), with its cause
   */
  public ConfineReport lastReport() {
    RuntimeException e = error.get();
    if (e != null) {
      throw new IllegalStateException("sweeper stopped: " + e.getMessage(), e);
    }
    ConfineReport r = last.get();
    return r != null
        ? r
        : new ConfineReport(
            CpuSet.empty(),
            java.util.List.of(),
            java.util.List.of(),
            java.util.List.of(),
            java.util.List.of());
  }

  /** Stops the sweeps and joins the thread (5 s, then interrupt). */
  @Override
  public void close() {
    stop.countDown();
    try {
      thread.join(5_000);
      if (thread.isAlive()) {
        thread.interrupt();
        thread.join(1_000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
