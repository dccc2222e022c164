package io.github.affinitykit.bench;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.latency.LatencyMeter;

/**
 * Prints the one-way cache-line latency between every pair of CPUs as an N×N table (ns), measured
 * by affinity-latency's {@link LatencyMeter}: for each pair, the median of seven batches of round
 * trips between a thread pinned on the lower CPU and a responder pinned on the other, halved (each
 * pair measured once, shown in both directions). SMT siblings, L3 neighbours and other sockets show
 * as blocks.
 *
 * <p>Run: {@code java -cp jmh-benchmarks/target/benchmarks.jar
 * io.github.affinitykit.bench.CoreToCoreMatrix [--cpus LIST] [--trips N]} (default: every CPU this
 * process may use, 20000 trips per batch).
 *
 * <p>Thread safety: a main program; single-threaded apart from the meter's pinned pairs.
 */
public final class CoreToCoreMatrix {
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
    System.out.println("one-way latency, ns (median of 7 batches of " + trips + " round trips)");
    System.out.print(LatencyMeter.on(backend).trips(trips).measure(cpus).table(CpuSet.empty()));
  }
}
