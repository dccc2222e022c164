package io.github.affinitykit.bench;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import java.io.PrintStream;

/**
 * Prints the one-way cache-line latency between every pair of CPUs as an N×N table (ns): the median
 * of several batches of round trips between a thread pinned on the row CPU and a responder pinned
 * on the column CPU, halved. SMT siblings, L3 neighbours and other sockets show as blocks.
 *
 * <p>Run: {@code java -cp jmh-benchmarks/target/benchmarks.jar
 * io.github.affinitykit.bench.CoreToCoreMatrix [--cpus LIST] [--trips N]} (default: every CPU this
 * process may use, 20000 trips per batch).
 *
 * <p>Thread safety: a main program; single-threaded apart from its responders.
 */
public final class CoreToCoreMatrix {
  private static final int BATCHES = 7;

  private CoreToCoreMatrix() {}

  /** Runs the matrix and prints it. */
  public static void main(String[] args) throws InterruptedException {
    HostCpus host = HostCpus.probe();
    CpuSet cpus = host.reachable();
    int trips = 20_000;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--cpus" -> cpus = CpuSet.parse(args[i + 1]);
        case "--trips" -> trips = Integer.parseInt(args[i + 1]);
        default ->
            throw new IllegalArgumentException(
                "option: " + args[i] + " (expected: --cpus LIST, --trips N)");
      }
    }
    if (trips <= 0 || !host.reachable().containsAll(cpus)) {
      throw new IllegalArgumentException(
          "--cpus "
              + cpus
              + " --trips "
              + trips
              + " (expected: CPUs among "
              + host.reachable()
              + ", trips > 0)");
    }
    AffinityBackend backend = AffinityBackend.detect();
    if (!backend.isSupported()) {
      System.err.println("cannot pin here: " + backend.reason());
      System.exit(1);
    }
    print(System.out, cpus, measure(backend, cpus, trips));
  }

  static double[][] measure(AffinityBackend backend, CpuSet cpus, int trips)
      throws InterruptedException {
    int[] ids = cpus.toArray();
    double[][] ns = new double[ids.length][ids.length];
    CpuSet before = backend.getAffinity(0);
    try {
      for (int r = 0; r < ids.length; r++) {
        backend.setAffinity(0, CpuSet.of(ids[r]));
        for (int c = 0; c < ids.length; c++) {
          ns[r][c] = r == c ? Double.NaN : oneWayNs(backend, ids[c], trips);
        }
      }
    } finally {
      backend.setAffinity(0, before);
    }
    return ns;
  }

  private static double oneWayNs(AffinityBackend backend, int cpu, int trips)
      throws InterruptedException {
    Responder responder = new Responder(backend, cpu);
    try {
      long v = 0;
      for (int i = 0; i < trips; i++) {
        v = responder.roundTrip(v + 1); // warm-up
      }
      double[] batches = new double[BATCHES];
      for (int b = 0; b < BATCHES; b++) {
        long start = System.nanoTime();
        for (int i = 0; i < trips; i++) {
          v = responder.roundTrip(v + 1);
        }
        batches[b] = (System.nanoTime() - start) / (2.0 * trips);
      }
      java.util.Arrays.sort(batches);
      return batches[BATCHES / 2];
    } finally {
      responder.stop();
    }
  }

  static void print(PrintStream out, CpuSet cpus, double[][] ns) {
    int[] ids = cpus.toArray();
    StringBuilder head = new StringBuilder(String.format("%6s", "cpu"));
    for (int id : ids) {
      head.append(String.format("%8d", id));
    }
    out.println("one-way latency, ns (median of " + BATCHES + " batches)");
    out.println(head);
    for (int r = 0; r < ids.length; r++) {
      StringBuilder row = new StringBuilder(String.format("%6d", ids[r]));
      for (int c = 0; c < ids.length; c++) {
        row.append(
            Double.isNaN(ns[r][c]) ? String.format("%8s", "-") : String.format("%8.1f", ns[r][c]));
      }
      out.println(row);
    }
  }
}
