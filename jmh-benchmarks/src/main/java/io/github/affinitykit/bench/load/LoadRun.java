package io.github.affinitykit.bench.load;

import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Recorder;

/**
 * The state every connection of one run shares: the time windows and the counters.
 *
 * <p>Thread safety: the windows are final; counters and recorder take concurrent writers.
 */
final class LoadRun {
  private final LoadConfig config;
  private final long startNs;
  private final long recordFromNs;
  private final long stopNs;
  private final Recorder latency = new Recorder(3);
  private final LongAdder sentInWindow = new LongAdder();
  private final LongAdder receivedInWindow = new LongAdder();
  private final LongAdder sentTotal = new LongAdder();
  private final LongAdder echoedTotal = new LongAdder();
  private final LongAdder outOfOrder = new LongAdder();
  private final LongAdder errors = new LongAdder();

  LoadRun(LoadConfig config, long startNs) {
    this.config = config;
    this.startNs = startNs;
    this.recordFromNs = startNs + config.warmup().toNanos();
    this.stopNs = recordFromNs + config.duration().toNanos();
  }

  boolean inWindow(long intendedNs) {
    return intendedNs >= recordFromNs && intendedNs < stopNs;
  }

  LoadConfig config() {
    return config;
  }

  long startNs() {
    return startNs;
  }

  long recordFromNs() {
    return recordFromNs;
  }

  long stopNs() {
    return stopNs;
  }

  Recorder latency() {
    return latency;
  }

  LongAdder sentInWindow() {
    return sentInWindow;
  }

  LongAdder receivedInWindow() {
    return receivedInWindow;
  }

  LongAdder sentTotal() {
    return sentTotal;
  }

  LongAdder echoedTotal() {
    return echoedTotal;
  }

  LongAdder outOfOrder() {
    return outOfOrder;
  }

  LongAdder errors() {
    return errors;
  }
}
