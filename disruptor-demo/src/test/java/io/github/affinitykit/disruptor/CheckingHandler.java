package io.github.affinitykit.disruptor;

import com.lmax.disruptor.EventHandler;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;

/**
 * Pipeline stage {@code stage}: checks that events arrive in publishing order (values 0, 1, 2...)
 * after the previous stage, counts them, records the thread's CPU mask when it starts, and opens a
 * latch after {@code total} events.
 */
final class CheckingHandler implements EventHandler<TestEvent> {
  private final int stage;
  private final long total;
  private final Supplier<String> mask;
  private final CountDownLatch done = new CountDownLatch(1);
  private final CountDownLatch started = new CountDownLatch(1);
  private volatile String startMask = "";
  private volatile long seen;
  private volatile String firstError = "";
  private long expected;

  CheckingHandler(int stage, long total, Supplier<String> mask) {
    this.stage = stage;
    this.total = total;
    this.mask = mask;
  }

  @Override
  public void onStart() {
    startMask = mask.get();
    started.countDown();
  }

  @Override
  public void onEvent(TestEvent e, long sequence, boolean endOfBatch) {
    if (firstError.isEmpty() && (e.value != expected || e.stage != stage - 1)) {
      firstError =
          "stage "
              + stage
              + " at "
              + sequence
              + ": value "
              + e.value
              + " after stage "
              + e.stage
              + " (expected: value "
              + expected
              + " after stage "
              + (stage - 1)
              + ")";
    }
    e.stage = stage;
    expected = e.value + 1;
    seen = seen + 1; // one writer: this handler's thread
    if (seen == total) {
      done.countDown();
    }
  }

  CountDownLatch done() {
    return done;
  }

  CountDownLatch started() {
    return started;
  }

  String startMask() {
    return startMask;
  }

  long seen() {
    return seen;
  }

  String firstError() {
    return firstError;
  }
}
