package io.github.affinitykit.bench.wakeup;

import io.github.affinitykit.bench.ThreadRoles;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * A single-thread executor as the consumer (the seed's asio {@code io_service}): one task per
 * event, the queue's lock and condition do the waking.
 *
 * <p>Thread safety: one producer.
 */
final class ExecutorSink implements EventSink {
  private final ExecutorService executor;
  private final long workNs;
  private volatile long consumed;

  ExecutorSink(long workNs, ThreadFactory threads) {
    this.workNs = workNs;
    this.executor =
        Executors.newSingleThreadExecutor(
            r ->
                threads.newThread(
                    () -> {
                      ThreadRoles.tag("consumer");
                      r.run();
                      ThreadRoles.finish();
                    }));
  }

  @Override
  public void publish() {
    executor.execute(
        () -> {
          EventSink.work(workNs);
          consumed = consumed + 1; // only the executor thread writes
        });
  }

  @Override
  public long consumed() {
    return consumed;
  }

  @Override
  public void stop() throws InterruptedException {
    executor.shutdown();
    executor.awaitTermination(5, TimeUnit.SECONDS);
  }
}
