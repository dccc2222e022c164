package io.github.affinitykit.watchdog;

import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.Seat;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Threads each bound to one seat of a group ({@link Seat#bindOnce()}), waiting until {@link #end()}
 * (20 s at most), which lets them end, closing their leases, and joins them.
 *
 * <p>Thread safety: used by one test thread.
 */
final class BoundThreads {
  private final CountDownLatch done = new CountDownLatch(1);
  private final List<Thread> threads = new ArrayList<>();

  /** Binds one thread per seat of {@code members} new seats of {@code group}; their leases. */
  List<CpuLease> pinned(CpuGroup group, int members) throws InterruptedException {
    LinkedBlockingQueue<CpuLease> bound = new LinkedBlockingQueue<>();
    List<CpuLease> out = new ArrayList<>();
    for (Seat seat : group.joinAll(members)) {
      Thread t =
          new Thread(
              () -> {
                try (CpuLease l = seat.bindOnce()) {
                  bound.add(l);
                  done.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              },
              seat.member());
      threads.add(t);
      t.start();
      out.add(bound.poll(10, TimeUnit.SECONDS));
    }
    return out;
  }

  /** Lets the threads end (each closes its lease) and joins them. */
  void end() throws InterruptedException {
    done.countDown();
    for (Thread t : threads) {
      t.join(10_000);
    }
  }
}
