package io.github.affinitykit.bench;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.os.AffinityBackend;

/**
 * The far end of a ping-pong: a thread bound to one CPU that copies {@link #ping} to {@link #pong}
 * as fast as it sees it change. Spins: use it only for latency measurements, and stop it.
 *
 * <p>Thread safety: one producer calls {@link #roundTrip}; the responder thread echoes.
 */
final class Responder {
  private final Thread thread;
  private volatile boolean running = true;
  private volatile long ping;
  private volatile long pong;

  Responder(AffinityBackend backend, int cpu) {
    thread =
        new Thread(
            () -> {
              ThreadRoles.tag("responder");
              if (cpu >= 0 && backend.isSupported()) {
                backend.setAffinity(0, CpuSet.of(cpu));
              }
              long seen = 0;
              while (running) {
                long p = ping;
                if (p != seen) {
                  seen = p;
                  pong = p;
                } else {
                  Thread.onSpinWait();
                }
              }
              ThreadRoles.finish();
            },
            "responder");
    thread.setDaemon(true);
    thread.start();
  }

  /** One round trip: returns once the responder has echoed {@code value}. */
  long roundTrip(long value) {
    ping = value;
    while (pong != value) {
      Thread.onSpinWait();
    }
    return value;
  }

  void stop() throws InterruptedException {
    running = false;
    thread.join(5_000);
  }
}
