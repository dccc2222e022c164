package io.github.affinitykit.bench.load;

import io.github.affinitykit.core.cpu.CpuSet;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;

/**
 * Samples the gateway every few seconds ({@link SoakSample}) on a daemon thread of its own, and
 * takes the steady connections' p99 of each whole minute from the load client's interval
 * histograms, printing a progress line with it.
 *
 * <p>Thread safety: {@link #window()} is for the load client's thread; the lists are read after
 * {@link #close()}.
 */
final class SoakSampler implements AutoCloseable {
  private static final long MINUTE_NS = TimeUnit.MINUTES.toNanos(1);

  private final long pid;
  private final int port;
  private final SoakClients clients;
  private final PrintStream progress;
  private final long startNs = System.nanoTime();
  private final Map<Integer, CpuSet> firstMasks = new HashMap<>();
  private final List<SoakSample> samples = new ArrayList<>();
  private final List<Double> p99PerMinuteUs = new ArrayList<>();
  private final AtomicReference<Supplier<Histogram>> intervals = new AtomicReference<>();
  private final AtomicReference<String> error = new AtomicReference<>("");
  private final ScheduledExecutorService thread;
  private volatile long nextMinuteNs = Long.MAX_VALUE;

  SoakSampler(long pid, int port, long everyMs, SoakClients clients, PrintStream progress) {
    this.pid = pid;
    this.port = port;
    this.clients = clients;
    this.progress = progress;
    this.thread = Executors.newSingleThreadScheduledExecutor(Soak.daemon("sampler"));
    thread.scheduleWithFixedDelay(this::sample, 0, everyMs, TimeUnit.MILLISECONDS);
  }

  /** The load client's window: its interval histograms feed the p99 of each minute. */
  LoadClient.Window window() {
    return new LoadClient.Window() {
      @Override
      public void latencyIntervals(Supplier<Histogram> next) {
        nextMinuteNs = System.nanoTime() + MINUTE_NS;
        intervals.set(next);
      }

      @Override
      public void opened() {
        progress.println("soak: warm-up done, recording");
      }

      @Override
      public void closed() {
        intervals.set(null);
      }
    };
  }

  private void sample() {
    try {
      SoakSample s = SoakSample.take(pid, port, (System.nanoTime() - startNs) / 1e9, firstMasks);
      synchronized (samples) {
        samples.add(s);
      }
    } catch (IOException | RuntimeException e) {
      error.set(e.toString());
    }
    Supplier<Histogram> next = intervals.get();
    if (next != null && System.nanoTime() >= nextMinuteNs) {
      nextMinuteNs += MINUTE_NS;
      double us = next.get().getValueAtPercentile(99) / 1e3;
      p99PerMinuteUs.add(us);
      List<SoakSample> now = samples();
      SoakSample last = now.isEmpty() ? null : now.get(now.size() - 1);
      progress.printf(
          "soak: minute %d, p99 %.0f µs, %d client cycles, %d lost%s%n",
          p99PerMinuteUs.size(),
          us,
          clients.cycles(),
          clients.lost(),
          last == null
              ? ""
              : String.format(
                  ", RSS %.0f MiB, %d fds, %d threads",
                  last.rssBytes() / 1048576.0, last.fds(), last.threads()));
    }
  }

  /** {@return the samples so far, in time order} */
  List<SoakSample> samples() {
    synchronized (samples) {
      return List.copyOf(samples);
    }
  }

  /** {@return the p99 of each whole minute so far, µs} */
  List<Double> p99PerMinuteUs() {
    return List.copyOf(p99PerMinuteUs);
  }

  /** {@return the latest failure to take a sample, empty if none} */
  String error() {
    return error.get();
  }

  /** Stops sampling (waits up to 30 s for a sample under way). */
  @Override
  public void close() {
    thread.shutdown();
    try {
      if (!thread.awaitTermination(30, TimeUnit.SECONDS)) {
        error.set("the sampler did not stop within 30 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      error.set("interrupted while the sampler stopped");
    }
  }
}
