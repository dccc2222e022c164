package io.github.affinitykit.netty.gateway;

import java.io.PrintStream;
import java.util.Objects;
import java.util.function.IntConsumer;

/**
 * The JVM-wide uncaught-exception handler {@link GatewayMain} installs first: on a {@link
 * VirtualMachineError} in any thread it restores an active isolation ({@link FatalRestorer}, within
 * its bound), then halts with {@link GatewayMain#EXIT_FATAL}; any other throwable is printed, as
 * the JVM's default handler would.
 *
 * <p>On standard error: {@code gateway: fatal: ERROR in thread T; halting}, then, if an isolation
 * was active, one line saying whether it was restored or is left for {@code affinity-cli release}.
 *
 * <p>Thread safety: may be called from any number of threads at once; each fatal caller halts.
 */
final class FatalHalt implements Thread.UncaughtExceptionHandler {
  private final FatalRestorer restorer;
  private final PrintStream err;
  private final IntConsumer halt;

  /**
   * A handler restoring through {@code restorer}, printing to {@code err}, halting with {@code
   * halt} ({@code Runtime.getRuntime()::halt}; tests record the status instead).
   */
  FatalHalt(FatalRestorer restorer, PrintStream err, IntConsumer halt) {
    this.restorer = Objects.requireNonNull(restorer, "restorer");
    this.err = Objects.requireNonNull(err, "err");
    this.halt = Objects.requireNonNull(halt, "halt");
  }

  @Override
  public void uncaughtException(Thread t, Throwable e) {
    if (!(e instanceof VirtualMachineError)) {
      err.print("Exception in thread \"" + t.getName() + "\" ");
      e.printStackTrace(err);
      return;
    }
    try {
      FatalRestorer.Outcome restored;
      long t0 = System.nanoTime();
      try {
        err.println("gateway: fatal: " + e + " in thread " + t.getName() + "; halting");
      } finally { // restored even if printing fails for want of memory
        restored = restorer.restore();
      }
      report(restored, (System.nanoTime() - t0) / 1_000_000);
    } finally {
      halt.accept(GatewayMain.EXIT_FATAL); // never returns in production
    }
  }

  private void report(FatalRestorer.Outcome restored, long ms) {
    String line =
        switch (restored) {
          case NOTHING -> "";
          case RESTORED -> "gateway: isolation restored before halting (" + ms + " ms)";
          case LEFT ->
              "gateway: isolation not wholly restored (journal kept): run affinity-cli release";
          case TIMED_OUT ->
              "gateway: isolation not restored within "
                  + restorer.bound().toMillis()
                  + " ms: run affinity-cli release";
        };
    if (!line.isEmpty()) {
      err.println(line);
    }
    err.flush();
  }
}
