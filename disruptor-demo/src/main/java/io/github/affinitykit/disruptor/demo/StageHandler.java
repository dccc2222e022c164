package io.github.affinitykit.disruptor.demo;

import com.lmax.disruptor.EventHandler;
import org.HdrHistogram.Histogram;

/**
 * One pipeline stage of the demo: checks that events arrive in publishing order after the stage
 * before it, counts them, and (last stage only) records end-to-end latency from each event's
 * intended send time into a histogram while recording is on.
 *
 * <p>Thread safety: {@link #onEvent} runs on the stage's thread; {@link #processed()} and {@link
 * #errors()} may be read from any thread; the histogram may be read and reset by the producer only
 * while no events are in flight (after {@link #processed()} reached what was published).
 */
final class StageHandler implements EventHandler<DemoEvent> {
  private final int stage;
  private final boolean last;
  private final Histogram latencyNs = new Histogram(60_000_000_000L, 3);
  private volatile boolean recording;
  private volatile long processed;
  private volatile long errors;
  private long expected;

  StageHandler(int stage, boolean last) {
    this.stage = stage;
    this.last = last;
  }

  @Override
  public void onEvent(DemoEvent e, long sequence, boolean endOfBatch) {
    if (e.value() != expected || e.stage() != stage - 1) {
      errors = errors + 1;
    }
    e.stage(stage);
    expected = e.value() + 1;
    if (last && recording) {
      latencyNs.recordValue(Math.max(0, System.nanoTime() - e.intendedNanos()));
    }
    processed = expected; // one writer: this stage's thread
  }

  /** Returns how many events this stage has handled (the next value it expects). */
  long processed() {
    return processed;
  }

  /** Returns how many events arrived out of order, twice, or before the stage in front. */
  long errors() {
    return errors;
  }

  /** Starts or stops latency recording; resets the histogram when starting. */
  void recording(boolean on) {
    if (on) {
      latencyNs.reset();
    }
    recording = on;
  }

  Histogram latencyNs() {
    return latencyNs;
  }
}
