package io.github.affinitykit.bench;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.os.AffinityBackend;
import java.util.ArrayList;
import java.util.List;

/**
 * Busy threads that compete for CPUs, optionally confined to a set of CPUs: the "other work" of the
 * seed's isolcpus experiment. Stopped by flag, then joined.
 *
 * <p>Thread safety: {@link #start} and {@link #stop} from one controlling thread.
 */
final class NoiseThreads {
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean running = true;

  /** Starts {@code n} spinning threads; each confines itself to {@code cpus} unless empty. */
  static NoiseThreads start(int n, AffinityBackend backend, CpuSet cpus) {
    NoiseThreads noise = new NoiseThreads();
    for (int i = 0; i < n; i++) {
      Thread t = new Thread(() -> noise.spin(backend, cpus), "noise-" + i);
      t.setDaemon(true);
      noise.threads.add(t);
      t.start();
    }
    return noise;
  }

  private void spin(AffinityBackend backend, CpuSet cpus) {
    ThreadRoles.tag("noise");
    if (!cpus.isEmpty() && backend.isSupported()) {
      backend.setAffinity(0, cpus);
    }
    long x = 1;
    while (running) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
    }
    ThreadRoles.finish();
    if (x == 42) {
      System.out.print(""); // keeps x alive
    }
  }

  /** Stops and joins the threads (5 s each at most). */
  void stop() throws InterruptedException {
    running = false;
    for (Thread t : threads) {
      t.join(5_000);
    }
  }
}
