package io.github.affinitykit.disruptor.demo;

import io.github.affinitykit.disruptor.Pinning;
import io.github.affinitykit.disruptor.WaitKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The demo's flags. Defaults take about a minute on 2 CPUs; {@code --quick} a few seconds.
 *
 * <p>Thread safety: immutable.
 *
 * @param burstMs how long the producer publishes flat out per scenario (throughput, busy CPU)
 * @param pacedEvents events published at {@code rate} per scenario (latency, context switches)
 * @param rate paced events per second
 * @param idleMs how long nothing is published per scenario (idle CPU)
 * @param warmupMs JIT warm-up before the table
 * @param ringSize ring slots (a power of two)
 * @param auditMs audit window for the placement-chosen strategy; 0 = no audit
 * @param scenarios the rows, in order
 */
record DemoOptions(
    long burstMs,
    long pacedEvents,
    long rate,
    long idleMs,
    long warmupMs,
    int ringSize,
    long auditMs,
    List<Scenario> scenarios) {

  static final String USAGE =
      "usage: disruptor-demo [--quick] [--burst-ms N] [--paced-events N] [--rate N/s]"
          + " [--idle-ms N] [--warmup-ms N] [--ring N] [--audit-ms N] [--shapes 1,3]"
          + " [--strategies busy-spin,yielding,sleeping,blocking,chosen]"
          + " [--pinning none,consumers,all]";

  /**
   * Parses the command line.
   *
   * @throws IllegalArgumentException naming the flag, the value and the rule
   */
  static DemoOptions parse(String... args) {
    boolean quick = List.of(args).contains("--quick");
    long[] v = quick ? new long[] {60, 500, 10_000, 60, 300, 1024, 0} : defaults();
    String shapes = "1,3";
    String strategies = "busy-spin,yielding,sleeping,blocking,chosen";
    String pinnings = "none,consumers,all";
    for (int i = 0; i < args.length; i++) {
      String flag = args[i];
      if (flag.equals("--quick")) {
        continue;
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(flag + ": no value (" + USAGE + ")");
      }
      String value = args[++i];
      switch (flag) {
        case "--burst-ms" -> v[0] = positive(flag, value);
        case "--paced-events" -> v[1] = positive(flag, value);
        case "--rate" -> v[2] = positive(flag, value);
        case "--idle-ms" -> v[3] = positive(flag, value);
        case "--warmup-ms" -> v[4] = number(flag, value, 0);
        case "--ring" -> v[5] = positive(flag, value);
        case "--audit-ms" -> v[6] = number(flag, value, 0);
        case "--shapes" -> shapes = value;
        case "--strategies" -> strategies = value;
        case "--pinning" -> pinnings = value;
        default -> throw new IllegalArgumentException("unknown flag: " + flag + " (" + USAGE + ")");
      }
    }
    return new DemoOptions(
        v[0], v[1], v[2], v[3], v[4], (int) v[5], v[6], rows(shapes, strategies, pinnings));
  }

  private static long[] defaults() {
    return new long[] {400, 5_000, 10_000, 300, 2_000, 1024, 0};
  }

  private static long positive(String flag, String value) {
    return number(flag, value, 1);
  }

  private static long number(String flag, String value, long min) {
    try {
      long n = Long.parseLong(value.trim());
      if (n >= min) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below with the rule
    }
    throw new IllegalArgumentException(
        flag + ": " + value + " (expected: an integer >= " + min + ")");
  }

  private static List<Scenario> rows(String shapes, String strategies, String pinnings) {
    List<Scenario> out = new ArrayList<>();
    for (String shape : shapes.split(",")) {
      int consumers = (int) positive("--shapes", shape);
      for (String p : pinnings.split(",")) {
        Pinning pinning = pinning(p);
        for (String s : strategies.split(",")) {
          Optional<WaitKind> kind =
              s.trim().equalsIgnoreCase("chosen")
                  ? Optional.empty()
                  : Optional.of(WaitKind.parse(s));
          out.add(new Scenario(consumers, pinning, kind));
        }
      }
    }
    return List.copyOf(out);
  }

  private static Pinning pinning(String name) {
    try {
      return Pinning.valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "--pinning: " + name + " (expected: none, consumers or all)", e);
    }
  }
}
