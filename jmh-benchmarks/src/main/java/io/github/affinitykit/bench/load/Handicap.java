package io.github.affinitykit.bench.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The positive control's handicap: a known extra cost, {@code cpus} of a CPU at the run's rate.
 * Where the gateway can do work per message ({@code --work-ns}), the cost is that work, {@code
 * workNs} per echoed message: CPU per message then rises by exactly it. Otherwise (another {@code
 * --jar} gateway, or maximum throughput, where the rate is not fixed) threads in the gateway's JVM
 * burn the share of a CPU ({@link HandicappedGateway}); that cost is partly absorbed on a busy
 * server, whose loop then wakes less often per message (seen on a 2-CPU machine: half to four
 * fifths of it showed in CPU per message), so its expected ratio is an upper bound.
 *
 * <p>Thread safety: immutable.
 *
 * @param cpus the cost, in CPUs (0.16 = 16% of one CPU); 0 = none
 * @param workNs the work per message, ns; 0 = the cost is burnt by threads instead
 */
record Handicap(double cpus, long workNs) {
  /** No handicap (every arm but the handicapped one). */
  static final Handicap NONE = new Handicap(0, 0);

  /** Validates. */
  Handicap {
    if (!(cpus >= 0) || workNs < 0) {
      throw new IllegalArgumentException(
          "handicap: " + cpus + " CPUs, " + workNs + " ns per message (expected: >= 0, >= 0)");
    }
  }

  /** {@code cpus} of a CPU, burnt by threads of the gateway's JVM. */
  static Handicap threads(double cpus) {
    return new Handicap(cpus, 0);
  }

  /** {@code cpus} of a CPU at {@code rate} msg/s, as work per message. */
  static Handicap perMessage(double cpus, long rate) {
    if (rate <= 0) {
      throw new IllegalArgumentException(
          "handicap rate: " + rate + " msg/s (expected: > 0, a fixed rate)");
    }
    return new Handicap(cpus, Math.max(1, Math.round(cpus * 1e9 / rate)));
  }

  /** The handicapped gateway's launch arguments, up to its own options. */
  List<String> launch(GatewayLaunch gateway) {
    if (workNs == 0) {
      return gateway.handicappedArgs(cpus);
    }
    List<String> args = new ArrayList<>(gateway.mainArgs());
    args.addAll(List.of("--work-ns", String.valueOf(workNs)));
    return args;
  }

  /** In words: {@code 1,663 ns of work per message (16% of a CPU at the run's rate)}. */
  String describe() {
    return workNs == 0
        ? HandicappedGateway.describe(cpus)
        : String.format(
            Locale.ROOT,
            "%,d ns of work per message (%.0f%% of a CPU at the run's rate)",
            workNs,
            cpus * 100);
  }
}
