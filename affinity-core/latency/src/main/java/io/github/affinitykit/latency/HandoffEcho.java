package io.github.affinitykit.latency;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.os.AffinityBackend;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The far end of a cache-line ping-pong: a thread of its own, pinned to one CPU, that copies each
 * new value of a shared field back as fast as it sees it, so that {@link #roundTrip} on another
 * thread takes two handoffs of one cache line. {@link LatencyMeter} measures with it, and so does
 * the benchmarks' {@code PingPongBenchmark}.
 *
 * <p><b>Cost.</b> The thread spins at 100% on its CPU until {@link #close()}: start one only to
 * measure, and close it.
 *
 * <p>Thread safety: one thread at a time calls {@link #roundTrip}; {@link #close()} and {@link
 * #failure()} may be called from any thread.
 */
public final class HandoffEcho implements AutoCloseable {
  private static final long JOIN_MS = 2_000;

  private final Thread thread;
  private final AtomicReference<RuntimeException> failure = new AtomicReference<>();
  private volatile boolean running = true;
  private volatile long ping;
  private volatile long pong;

  private HandoffEcho(AffinityBackend backend, int cpu, ThreadFactory threads) {
    thread =
        threads.newThread(
            () -> {
              try {
                if (cpu >= 0) {
                  backend.setAffinity(0, CpuSet.of(cpu));
                }
                echo();
              } catch (RuntimeException e) {
                failure.compareAndSet(null, e);
                running = false;
              }
            });
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * Starts the echoing thread.
   *
   * @param backend pins the thread when it starts
   * @param cpu the CPU it pins itself to, or -1 to leave it unpinned
   * @param threads makes the thread (its name, and what it does around the echo); the thread is
   *     made a daemon
   * @return the running echo; close it
   * @throws IllegalArgumentException if {@code cpu} is below -1
   */
  public static HandoffEcho start(AffinityBackend backend, int cpu, ThreadFactory threads) {
    Objects.requireNonNull(backend, "backend");
    Objects.requireNonNull(threads, "threads");
    if (cpu < -1) {
      throw new IllegalArgumentException("cpu: " + cpu + " (expected: a CPU id, or -1: unpinned)");
    }
    return new HandoffEcho(backend, cpu, threads);
  }

  /**
   * Hands {@code value} to the echo and spins until it comes back.
   *
   * @param value a value other than the previous call's, and other than 0 on the first call
   * @return true once echoed; false if the echo stopped first (closed, or its thread failed)
   */
  public boolean roundTrip(long value) {
    ping = value;
    while (pong != value) {
      if (!running) {
        return false;
      }
      Thread.onSpinWait();
    }
    return true;
  }

  /** {@return what stopped the echoing thread before it was closed (it could not pin), if any} */
  public Optional<RuntimeException> failure() {
    return Optional.ofNullable(failure.get());
  }

  /** Stops the echoing thread and waits up to 2 s for it to end; idempotent. */
  @Override
  public void close() {
    running = false;
    try {
      thread.join(JOIN_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void echo() {
    long seen = 0;
    while (running) {
      long p = ping;
      if (p != seen) {
        seen = p;
        pong = p;
      } else {
        Thread.onSpinWait();
      }
    }
  }
}
