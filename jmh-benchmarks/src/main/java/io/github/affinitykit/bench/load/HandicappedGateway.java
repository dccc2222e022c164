package io.github.affinitykit.bench.load;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The positive control's gateway: the gateway's own main, run unchanged in a JVM that also carries
 * a known handicap, threads that burn a fixed share of a CPU ({@code cpus}, e.g. 0.16 = 16% of one
 * CPU) whatever the load. Each burns its share of every {@link #PERIOD_NS 10 ms} period, counted in
 * its own CPU time and caught up on after a preemption (so a busy machine does not shrink the
 * handicap), then sleeps to the period's end. At the operating point the server's CPU per message
 * must rise by {@code cpus} over the unpinned server's CPU: a run that cannot see it cannot see an
 * effect of that size either.
 *
 * <p>Run as {@code java -cp <load test and gateway> HandicappedGateway <cpus> <gateway main class>
 * <gateway arguments...>}.
 *
 * <p>Thread safety: a main program; the handicap threads share nothing.
 */
public final class HandicappedGateway {
  /** The duty-cycle period. */
  static final long PERIOD_NS = TimeUnit.MILLISECONDS.toNanos(10);

  /** Periods a starved handicap thread may catch up on. */
  static final long MAX_DEBT = 10;

  private HandicappedGateway() {}

  /** Starts the handicap, then runs {@code args[1]}'s main with the rest of the arguments. */
  public static void main(String[] args) throws Throwable {
    double cpus = args.length < 2 ? Double.NaN : parse(args[0]);
    if (!(cpus > 0 && cpus <= 64)) {
      System.err.println(
          "HandicappedGateway: "
              + String.join(" ", args)
              + " (expected: <cpus, > 0 and <= 64> <main class> <arguments...>)");
      System.exit(2);
    }
    start(cpus);
    MethodHandle main =
        MethodHandles.publicLookup()
            .findStatic(
                Class.forName(args[1]), "main", MethodType.methodType(void.class, String[].class));
    main.invoke((Object) Arrays.copyOfRange(args, 2, args.length));
  }

  /** Starts {@code ceil(cpus)} daemon threads that burn {@code cpus} of a CPU between them. */
  static void start(double cpus) {
    int n = (int) Math.ceil(cpus);
    long busyNs = Math.round(PERIOD_NS * cpus / n);
    for (int i = 0; i < n; i++) {
      Thread t = new Thread(() -> burn(busyNs), "handicap-" + i);
      t.setDaemon(true);
      t.start();
    }
  }

  /**
   * Burns {@code busyNs} of this thread's CPU time in every period, forever. A thread the machine
   * kept from its CPU catches up on up to {@link #MAX_DEBT} periods, so that the share holds over
   * time on a busy machine too.
   */
  private static void burn(long busyNs) {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long period = System.nanoTime();
    while (true) {
      long until = mx.getCurrentThreadCpuTime() + busyNs;
      while (mx.getCurrentThreadCpuTime() < until) {
        Thread.onSpinWait();
      }
      long now = System.nanoTime();
      period = Math.max(period + PERIOD_NS, now - MAX_DEBT * PERIOD_NS);
      if (period > now) {
        LockSupport.parkNanos(period - now);
      }
    }
  }

  private static double parse(String s) {
    try {
      return Double.parseDouble(s.trim());
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }

  /** The handicap in words: {@code a thread burning 16% of a CPU}. */
  static String describe(double cpus) {
    int n = (int) Math.ceil(cpus);
    return n == 1
        ? String.format(Locale.ROOT, "a thread burning %.0f%% of a CPU", cpus * 100)
        : String.format(Locale.ROOT, "%d threads burning %.2f CPUs between them", n, cpus);
  }
}
