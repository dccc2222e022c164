package io.github.affinitykit.core.testkit;

import io.github.affinitykit.core.CpuLease;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The threads of the pin state's stress tests (core's and the watchdog's): a bound thread that
 * stays alive until released, and racers that start together at a barrier.
 *
 * <p>Thread safety: stateless.
 */
public final class Racers {
  private Racers() {}

  /** A thread that binds {@code bind}'s lease, hands it over and stays alive until {@code end}. */
  public static CpuLease bound(Supplier<CpuLease> bind, CountDownLatch end, List<Thread> threads)
      throws InterruptedException {
    LinkedBlockingQueue<CpuLease> out = new LinkedBlockingQueue<>();
    Thread t =
        new Thread(
            () -> {
              out.add(bind.get());
              awaitQuietly(end);
            });
    threads.add(t);
    t.start();
    return out.poll(10, TimeUnit.SECONDS);
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Starts a thread that waits at {@code gate}, then runs {@code action}. */
  public static Thread gated(CyclicBarrier gate, Runnable action) {
    Thread t =
        new Thread(
            () -> {
              try {
                gate.await(10, TimeUnit.SECONDS);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
              action.run();
            });
    t.start();
    return t;
  }
}
