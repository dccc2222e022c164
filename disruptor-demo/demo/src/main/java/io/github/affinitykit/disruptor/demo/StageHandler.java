package io.github.affinitykit.disruptor.demo;

import com.lmax.disruptor.EventHandler;
import org.HdrHistogram.Histogram;

/**
 * One pipeline stage of the demo: checks that events arrive in publishing order after the stage
 * before it, counts them, and (last stage only) records end-to-end latency from each event's
 * intended send time into a histogram while recording is on (its {@link Tally}).
 *
 * <p>Thread safety: {@link #onEvent} runs on the stage's thread; {@link #processed()} and {@link
 * #errors()} may be read from any thread; the histogram may be read and reset by the producer only
 * while no events are in flight (after {@link #processed()} reached what was published).
 */
final class StageHandler implements EventHandler<DemoEvent> {
  private final int stage;
  private final Tally tally = new Tally();
  private volatile long outOfStage;

  StageHandler(int stage) {
    this.stage = stage;
  }

  @Override
  public void onEvent(DemoEvent e, long sequence, boolean endOfBatch) {
    if (e.stage() != stage - 1) {
      outOfStage = outOfStage + 1; // one writer: this stage's thread
    }
    e.stage(stage);
    tally.on(e.value(), e.intendedNanos());
  }

  /** Returns how many events this stage has handled (the next value it expects). */
  long processed() {
    return tally.processed();
  }

  /** Returns how many events arrived out of order, twice, or before the stage in front. */
  long errors() {
    return tally.errors() + outOfStage;
  }

  /** Starts or stops latency recording; resets the histogram when starting. */
  void recording(boolean on) {
    tally.recording(on);
  }

  Histogram latencyNs() {
    return tally.latencyNs();
  }
}
