package io.github.affinitykit.jitter;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * What one sampling thread records while it spins: every gap of at least the floor between two
 * consecutive {@link System#nanoTime()} reads goes into the histogram and the time lost; the
 * longest few are kept with their start, and those at or over the threshold are logged in time
 * order (a bounded log, for the counters' re-reads, the attribution and the JFR events).
 *
 * <p>Nothing is allocated while spinning, and a gap costs a few array writes: the loop itself is
 * two clock reads apart (about 20-40 ns on x86-64 with a TSC clock source), far below the floor.
 * Its first thousands of turns run in the interpreter, slower but still below the floor, until the
 * JIT compiles the loop on another thread (on-stack replacement).
 *
 * <p>Thread safety: one thread spins and records; another may read {@link #logged()} at any time
 * (to know that a gap over the threshold ended); everything else is read after that thread is
 * joined.
 */
final class Spinner {
  /** How often the loop reads the stop flag: every 4096 reads, a few µs apart. */
  private static final long STOP_CHECK = 4095;

  private final long floorNs;
  private final long thresholdNs;
  private final long[] buckets = new long[GapHistogram.BUCKETS];
  private final long[] topStart;
  private final long[] topDuration;
  private final long[] logStart;
  private final long[] logDuration;
  private final AtomicInteger published = new AtomicInteger();
  private volatile boolean stopped;
  private int top;
  private int logged;
  private long dropped;
  private long gaps;
  private long lostNs;
  private long samples;
  private long firstNanos;
  private long lastNanos;

  Spinner(long floorNs, long thresholdNs, int largest, int logCapacity) {
    this.floorNs = floorNs;
    this.thresholdNs = thresholdNs;
    this.topStart = new long[largest];
    this.topDuration = new long[largest];
    this.logStart = new long[logCapacity];
    this.logDuration = new long[logCapacity];
  }

  /** Reads the clock back to back until it reads {@code endNanos} or later. */
  void spin(long endNanos) {
    long prev = System.nanoTime();
    firstNanos = prev;
    long n = 1;
    long now;
    do {
      now = System.nanoTime();
      n++;
      long gap = now - prev;
      if (gap >= floorNs) {
        record(prev, gap);
      }
      prev = now;
    } while (now < endNanos && ((n & STOP_CHECK) != 0 || !stopped));
    samples = n;
    lastNanos = now;
  }

  /** Records a gap of {@code gapNs} that began at {@code startNanos}. */
  void record(long startNanos, long gapNs) {
    buckets[GapHistogram.bucket(gapNs, floorNs)]++;
    gaps++;
    lostNs += gapNs;
    keepIfLongest(startNanos, gapNs);
    if (gapNs >= thresholdNs) {
      if (logged < logStart.length) {
        logStart[logged] = startNanos;
        logDuration[logged] = gapNs;
        logged++;
        published.lazySet(logged);
      } else {
        dropped++;
      }
    }
  }

  private void keepIfLongest(long startNanos, long gapNs) {
    if (top < topDuration.length) {
      topStart[top] = startNanos;
      topDuration[top++] = gapNs;
      return;
    }
    int shortest = 0;
    for (int i = 1; i < top; i++) {
      if (topDuration[i] < topDuration[shortest]) {
        shortest = i;
      }
    }
    if (top > 0 && gapNs > topDuration[shortest]) {
      topStart[shortest] = startNanos;
      topDuration[shortest] = gapNs;
    }
  }

  /** Ends the spin before its end time (an error on the caller's side): any thread. */
  void stop() {
    stopped = true;
  }

  /** How many gaps over the threshold are logged so far: any thread. */
  int logged() {
    return published.get();
  }

  GapHistogram histogram() {
    return new GapHistogram(floorNs, buckets);
  }

  int top() {
    return top;
  }

  long topStart(int i) {
    return topStart[i];
  }

  long topDuration(int i) {
    return topDuration[i];
  }

  long logStart(int i) {
    return logStart[i];
  }

  long logDuration(int i) {
    return logDuration[i];
  }

  long dropped() {
    return dropped;
  }

  long gaps() {
    return gaps;
  }

  long lostNs() {
    return lostNs;
  }

  long samples() {
    return samples;
  }

  long firstNanos() {
    return firstNanos;
  }

  long lastNanos() {
    return lastNanos;
  }
}
