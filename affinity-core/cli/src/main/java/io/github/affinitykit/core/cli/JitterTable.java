package io.github.affinitykit.core.cli;

import java.util.Locale;

/**
 * Prints a {@link JitterRun}: what was sampled, how, the noise and the cost, then a table per arm
 * (max gap, p99.99, time lost per CPU; or why the arm did not run), then where the anchor measures
 * differently. The one printer of the experiment's results.
 *
 * <p>Thread safety: stateless.
 */
final class JitterTable {
  private static final String ROW = "  %4s  %-26s %10s %11s %12s %12s %11s  %-9s %s%n";
  private static final int CAUSE = 60;

  /** Where MicroJitterSampler measures differently from the kit's arms. */
  static final String DIFFERENCES =
      "Where the anchor measures differently: it samples half the time (a 1 ms spin, then a 1 ms"
          + " sleep), so a gap that falls in its sleep is not seen and each spin starts after a"
          + " wake-up; it counts gaps between its thresholds (2, 3, 4, 6, 8, 10, 14, 20 µs ..."
          + " 100 ms) as rates per hour, so its longest gap and time lost are lower bounds (≥)"
          + " and its p99.99 an upper bound (≤), where the kit's arms time every gap; it"
          + " discards a 30 s warm-up round and samples 15 s of each 30 s round; its thread is"
          + " pinned by OpenHFT's AffinityLock to a static CPU, not by the kit, runs in a JVM"
          + " without the experiment's other threads, and nothing attributes its gaps.";

  private JitterTable() {}

  static String render(JitterRun run) {
    StringBuilder out = new StringBuilder(header(run));
    for (ArmResult arm : run.arms()) {
      out.append('\n').append(String.format(Locale.ROOT, "%-10s %s%n", arm.arm(), arm.setup()));
      if (arm.refused().isPresent()) {
        out.append("  ").append(arm.refused().get()).append('\n');
        continue;
      }
      out.append(
          String.format(
              Locale.ROOT,
              ROW,
              "cpu",
              "thread",
              "sampled",
              "gaps",
              "max gap",
              "p99.99",
              "time lost",
              "audit",
              "cause of the max gap"));
      arm.rows().forEach(r -> out.append(row(r)));
      arm.notes().forEach(n -> out.append("  note: ").append(n).append('\n'));
    }
    return out.append('\n').append(DIFFERENCES).append('\n').toString();
  }

  private static String header(JitterRun run) {
    long kitArms = run.arms().stream().filter(a -> !a.arm().equals("anchor")).count();
    return String.format(
            Locale.ROOT,
            "Jitter     CPUs %s, %s per arm: every gap of %s or more between two consecutive"
                + " clock reads of a spinning thread%n",
            run.cpus(),
            length(run.window().toNanos()),
            length(run.floorNs()))
        + "  noise: "
        + run.noise()
        + "\n  cost: a sampling thread is a busy CPU for its window (up to "
        + kitArms
        + " arms of "
        + length(run.window().toNanos())
        + " on each CPU sampled), and the anchor's JVM one at 50% for its rounds\n"
        + "  p99.99: the length at least 99.99% of the gaps are shorter than or equal to (below"
        + " 10,000 gaps the longest; else its histogram bucket's upper end, ≤);"
        + " time lost: the gaps' sum over the time sampled\n";
  }

  private static String row(ArmRow r) {
    return String.format(
        Locale.ROOT,
        ROW,
        r.cpu(),
        r.thread(),
        length(r.sampledNs()),
        String.format(Locale.ROOT, "%,d", r.gaps()),
        amount(r.maxGap()),
        amount(r.p9999()),
        r.lost().bound().sign() + String.format(Locale.ROOT, "%.4f%%", 100 * r.lostShare()),
        r.audit(),
        shorten(r.cause()));
  }

  static String amount(ArmRow.Amount a) {
    return a.ns() == Long.MAX_VALUE ? "unbounded" : a.bound().sign() + length(a.ns());
  }

  /** {@code ns} in the unit that reads best: {@code 850 ns}, {@code 12.3 µs}, {@code 4.10 ms}. */
  static String length(long ns) {
    if (ns < 1_000) {
      return ns + " ns";
    }
    if (ns < 1_000_000) {
      return String.format(Locale.ROOT, "%.1f µs", ns / 1e3);
    }
    if (ns < 1_000_000_000) {
      return String.format(Locale.ROOT, "%.2f ms", ns / 1e6);
    }
    return String.format(Locale.ROOT, "%.2f s", ns / 1e9);
  }

  private static String shorten(String cause) {
    return cause.length() <= CAUSE ? cause : cause.substring(0, CAUSE - 3) + "...";
  }
}
