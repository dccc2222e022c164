package io.github.affinitykit.latency;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.os.AffinityBackend;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One pair's measurement: an initiator thread pinned to one CPU makes round trips through a {@link
 * HandoffEcho} pinned to the other, {@code trips} a batch, one batch of warm-up then {@code
 * batches} timed; the pair's one-way latency is the median batch's time per round trip, halved.
 * Both threads spin for the whole measurement and stop when it ends or its timeout passes.
 *
 * <p>Thread safety: stateless; each call owns its two threads and joins them before it returns.
 */
final class HandoffPair {
  private static final long JOIN_MS = 2_000;

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
    String name = "latency-" + from + "-" + to;
    double[] perBatch = new double[batches];
    CountDownLatch done = new CountDownLatch(1);
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    AtomicBoolean complete = new AtomicBoolean();
    HandoffEcho echo = HandoffEcho.start(backend, to, r -> new Thread(r, name + "-echo"));
    Thread initiator =
        new Thread(
            () -> {
              try {
                backend.setAffinity(0, CpuSet.of(from));
                complete.set(rally(echo, trips, perBatch));
              } catch (RuntimeException e) {
                failure.set(e);
              } finally {
                done.countDown();
              }
            },
            name);
    initiator.setDaemon(true);
    boolean finished = false;
    try {
      initiator.start();
      finished = done.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } finally {
      echo.close(); // a rally still running sees the echo stop and returns
      initiator.join(JOIN_MS);
    }
    failed(to, echo.failure().orElse(null));
    failed(from, failure.get());
    if (!finished || !complete.get()) {
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

  private static void failed(int cpu, RuntimeException e) {
    if (e != null) {
      throw new IllegalStateException(
          "cpu " + cpu + ": the measuring thread failed (" + e.getMessage() + ")", e);
    }
  }

  /** One batch of warm-up, then the timed batches; false if the echo stopped first. */
  private static boolean rally(HandoffEcho echo, int trips, double[] perBatch) {
    long value = 0;
    for (int b = -1; b < perBatch.length; b++) {
      long start = System.nanoTime();
      for (int i = 0; i < trips; i++) {
        if (!echo.roundTrip(++value)) {
          return false;
        }
      }
      if (b >= 0) {
        perBatch[b] = (System.nanoTime() - start) / (2.0 * trips);
      }
    }
    return true;
  }
}
