package io.github.affinitykit.bench.wakeup;

import io.github.affinitykit.bench.ThreadRoles;
import java.util.concurrent.ThreadFactory;

/**
 * A consumer thread that sleeps on a {@link Signal} when it has nothing to do, then processes every
 * published event in a batch.
 *
 * <p>Thread safety: one producer; the consumer is this class's own thread.
 */
final class SignalSink implements EventSink {
  private final Signal signal;
  private final long workNs;
  private final Thread thread;
  private volatile long published;
  private volatile long consumed;
  private volatile boolean running = true;
  private volatile Throwable failure;

  SignalSink(Signal signal, long workNs, ThreadFactory threads) {
    this.signal = signal;
    this.workNs = workNs;
    this.thread = threads.newThread(this::run);
    signal.consumer(thread);
    thread.start();
  }

  private void run() {
    ThreadRoles.tag("consumer");
    long done = 0;
    try {
      while (running) {
        long available = published;
        if (available == done) {
          long seen = done;
          signal.await(() -> published != seen || !running);
          continue;
        }
        while (done < available) {
          EventSink.work(workNs);
          done++;
        }
        consumed = done;
      }
    } catch (Exception e) {
      failure = e;
    } finally {
      ThreadRoles.finish();
    }
  }

  @Override
  public void publish() throws Exception {
    published = published + 1; // single producer
    signal.signal();
  }

  @Override
  public long consumed() {
    if (failure != null) {
      throw new IllegalStateException("consumer failed", failure);
    }
    return consumed;
  }

  @Override
  public void stop() throws Exception {
    running = false;
    signal.signal();
    thread.join(5_000);
    signal.close();
  }
}
