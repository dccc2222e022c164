package io.github.affinitykit.latency;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.os.AffinityBackend;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One pair's measurement: an initiator thread pinned to one CPU writes a number to a shared field
 * and spins until a responder pinned to the other CPU has copied it back, {@code trips} times a
 * batch; the pair's one-way latency is the median batch's time per round trip, halved. Both threads
 * spin for the whole measurement and stop when it ends or its timeout passes.
 *
 * <p>Thread safety: {@link #oneWayNs} may be called from any thread; each call owns its two threads
 * and joins them before it returns.
 */
final class HandoffPair {
  private static final long JOIN_MS = 2_000;

  private volatile long ping;
  private volatile long pong;
  private volatile boolean stop;
  private final AtomicReference<RuntimeException> failure = new AtomicReference<>();

  private HandoffPair() {}

  /**
   * Measures the pair {@code from}, {@code to}.
   *
   * @return the one-way latency in ns, over 0
   * @throws IllegalStateException if a thread cannot be pinned or no result came within {@code
   *     timeout}; both threads are stopped first
   * @throws InterruptedException if the calling thread is interrupted while it waits
   */
  static double oneWayNs(
      AffinityBackend backend, int from, int to, int trips, int batches, Duration timeout)
      throws InterruptedException {
    HandoffPair pair = new HandoffPair();
    double[] perBatch = new double[batches];
    CountDownLatch done = new CountDownLatch(1);
    Thread responder =
        pair.start(backend, to, "latency-" + from + "-" + to + "-responder", pair::echo, done);
    Thread initiator =
        pair.start(
            backend,
            from,
            "latency-" + from + "-" + to + "-initiator",
            () -> pair.rally(trips, perBatch),
            done);
    boolean finished;
    try {
      finished = done.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } finally {
      pair.stop = true;
      initiator.join(JOIN_MS);
      responder.join(JOIN_MS);
    }
    RuntimeException failed = pair.failure.get();
    if (failed != null) {
      throw failed;
    }
    if (!finished) {
      throw new IllegalStateException(
          "pair "
              + from
              + ","
              + to
              + ": no result within "
              + timeout
              + " (expected: both CPUs free to run a spinning thread)");
    }
    Arrays.sort(perBatch);
    return perBatch[batches / 2];
  }

  private Thread start(
      AffinityBackend backend, int cpu, String name, Runnable body, CountDownLatch done) {
    Thread thread =
        new Thread(
            () -> {
              try {
                backend.setAffinity(0, CpuSet.of(cpu));
                body.run();
              } catch (RuntimeException e) {
                failure.compareAndSet(
                    null,
                    new IllegalStateException(
                        "cpu " + cpu + ": the measuring thread failed (" + e.getMessage() + ")",
                        e));
                stop = true;
              } finally {
                done.countDown();
              }
            },
            name);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  /** The responder: copies each new ping to pong until stopped. */
  private void echo() {
    long seen = 0;
    while (!stop) {
      long p = ping;
      if (p != seen) {
        seen = p;
        pong = p;
      } else {
        Thread.onSpinWait();
      }
    }
  }

  /** The initiator: one batch of warm-up, then the timed batches; returns early when stopped. */
  private void rally(int trips, double[] perBatch) {
    long value = 0;
    for (int b = -1; b < perBatch.length; b++) {
      long start = System.nanoTime();
      for (int i = 0; i < trips; i++) {
        ping = ++value;
        while (pong != value) {
          if (stop) {
            return;
          }
          Thread.onSpinWait();
        }
      }
      if (b >= 0) {
        perBatch[b] = (System.nanoTime() - start) / (2.0 * trips);
      }
    }
    stop = true;
  }
}
