package io.github.affinitykit.bench.load;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The calibration's progress lines: one per probe, numbered against the most there can be, the
 * refinement's marked, with the run's time left.
 *
 * <p>Thread safety: one thread prints.
 */
final class CalibrationProgress {
  private final PrintStream out;
  private final Calibration c;
  private final int most;
  private final Supplier<String> left;
  private int n;

  /**
   * Lines for {@code c}'s probes to {@code out}, at most {@code most} of them, each ending with
   * {@code left}'s time left.
   */
  CalibrationProgress(PrintStream out, Calibration c, int most, Supplier<String> left) {
    this.out = Objects.requireNonNull(out, "out");
    this.c = Objects.requireNonNull(c, "c");
    this.most = most;
    this.left = Objects.requireNonNull(left, "left");
  }

  /**
   * Prints {@code p}, a probe of the search or (if {@code refining}) of the refinement; {@code p}.
   */
  Calibration.Point probed(Calibration.Point p, boolean refining) {
    out.printf(
        Locale.ROOT,
        "calibrating %d/%d%s: %,d msg/s -> unpinned server %s, %s (target %.0f%% \u00b1 %.0f);"
            + " %.2f switches/msg, client JVM %.0f%%, others %.0f%% CPU  (%s)%n",
        ++n,
        most,
        refining ? " (fit, fresh JVM)" : "",
        p.rate(),
        p.keptUp()
            ? String.format(Locale.ROOT, "at %.1f%% CPU", p.cpuPercent())
            : "did not keep up (messages lost or echoed late)",
        p.steady()
            ? String.format(Locale.ROOT, "steady after %.1f s", p.warmupNs() / 1e9)
            : String.format(Locale.ROOT, "NOT steady after %.1f s", p.warmupNs() / 1e9),
        c.targetPercent(),
        c.tolerancePercent(),
        p.switchesPerMessage(),
        p.clientCpuPercent(),
        p.othersCpuPercent(),
        left.get());
    return p;
  }
}
