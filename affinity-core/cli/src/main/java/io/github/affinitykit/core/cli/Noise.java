package io.github.affinitykit.core.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * The jitter experiment's noise: busy threads of this JVM, unpinned (the scheduler places them on
 * any CPU they may use), each spinning on arithmetic until {@link #close()}. The same noise runs
 * beside every arm; the exclusive arm's confinement moves them off the sampled CPUs, as it moves
 * any other thread of the JVM.
 *
 * <p>Thread safety: {@link #close()} may be called from any thread, more than once.
 */
final class Noise implements AutoCloseable {
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean running = true;

  /** Starts {@code n} busy threads, 0 or more. */
  Noise(int n) {
    for (int i = 0; i < n; i++) {
      Thread t = new Thread(this::spin, "jitter-noise-" + i);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
  }

  /** The noise in a sentence. */
  String description() {
    int n = threads.size();
    return n == 0
        ? "none"
        : n
            + " busy thread"
            + (n == 1 ? "" : "s")
            + " of this JVM, unpinned (the scheduler puts them on any CPU they may use), running"
            + " beside every arm and the anchor";
  }

  private void spin() {
    long x = 1;
    while (running) {
      x = x * 6364136223846793005L + 1442695040888963407L;
    }
    if (x == 42) {
      Thread.yield(); // keeps the loop's work observable
    }
  }

  /** Stops and joins the threads. */
  @Override
  public void close() {
    running = false;
    boolean interrupted = false;
    for (Thread t : threads) {
      try {
        t.join(10_000);
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
