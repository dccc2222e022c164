package io.github.affinitykit.micrometer;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuLease;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A thread pinned through a kit's group: it binds, publishes its lease, and holds it until {@link
 * #close()} (which closes the lease on the thread and joins it).
 */
final class PinnedThread implements AutoCloseable {
  private final CompletableFuture<CpuLease> lease = new CompletableFuture<>();
  private final CountDownLatch done = new CountDownLatch(1);
  private final Thread thread;

  PinnedThread(AffinityKit kit, String group, String name) {
    thread =
        new Thread(
            () -> {
              try (CpuLease l = kit.group(group).build().join(group + "-0").bindOnce()) {
                lease.complete(l);
                done.await(20, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } catch (RuntimeException e) {
                lease.completeExceptionally(e);
              }
            },
            name);
    thread.start();
  }

  /** Returns the lease, once the thread is bound. */
  CpuLease lease() throws Exception {
    return lease.get(20, TimeUnit.SECONDS);
  }

  @Override
  public void close() {
    done.countDown();
    try {
      thread.join(20_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
