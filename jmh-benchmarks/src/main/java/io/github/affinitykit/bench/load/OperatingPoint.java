package io.github.affinitykit.bench.load;

import java.util.Locale;
import java.util.Optional;

/**
 * Where the trials actually ran: the unpinned trials' median CPU against the calibration's target,
 * both in % of the server CPUs. More than {@link #MISSED_POINTS} away, the operating point was
 * missed, and the verdict's first line says so and by how much: every figure then holds at the rate
 * that ran, not at the operating point the run was meant to answer for.
 *
 * <p>Thread safety: immutable.
 *
 * @param rate the offered rate every arm ran at, msg/s (0 = maximum throughput)
 * @param calibration how the rate was found; empty when {@code --rate} fixed it
 * @param targetPercent the target, % of the server CPUs
 * @param serverCpus the server's CPUs
 * @param medianPercent the usable unpinned trials' median CPU, % of the server CPUs (NaN: none)
 */
record OperatingPoint(
    long rate,
    Optional<Calibration.Result> calibration,
    double targetPercent,
    int serverCpus,
    double medianPercent) {

  /** The largest distance from the target, CPU% points, that still counts as on target. */
  static final double MISSED_POINTS = 5;

  /** The operating point of {@code unpinned}'s usable trials. */
  static OperatingPoint of(
      long rate, Optional<Calibration.Result> c, double target, int cpus, ScenarioSummary base) {
    return new OperatingPoint(rate, c, target, cpus, base.stats(Trial::serverCpuPercent)[0] / cpus);
  }

  /**
   * Whether the operating point was missed: the calibrated trials ran more than {@link
   * #MISSED_POINTS} from the target, or, without a usable unpinned trial to tell, the calibration
   * itself did not land.
   */
  boolean missed() {
    if (calibration.isEmpty()) {
      return false;
    }
    return Double.isFinite(medianPercent)
        ? Math.abs(medianPercent - targetPercent) > MISSED_POINTS
        : !calibration.get().landed();
  }

  /** The verdict's first line when {@link #missed()}; empty otherwise. */
  String missedLine() {
    if (!missed()) {
      return "";
    }
    if (!Double.isFinite(medianPercent)) {
      Calibration.Result c = calibration.get();
      return String.format(
          Locale.ROOT,
          "The operating point was not reached: the calibration ended at %,d msg/s with %s"
              + " against the %.0f%% target (%s), and no unpinned trial was usable to tell where"
              + " the trials ran.",
          rate,
          c.best().keptUp()
              ? String.format(
                  Locale.ROOT,
                  "the unpinned server at %.1f%% CPU",
                  c.best().cpuPercent() / serverCpus)
              : "the unpinned server keeping up with no probed rate",
          targetPercent,
          c.stop());
    }
    double off = medianPercent - targetPercent;
    return String.format(
        Locale.ROOT,
        "The operating point was missed: the unpinned trials ran at %.1f%% of the server CPU%s,"
            + " %.1f points %s the %.0f%% target; every figure below holds at %,d msg/s, not at"
            + " the target.",
        medianPercent,
        serverCpus == 1 ? "" : "s",
        Math.abs(off),
        off < 0 ? "below" : "above",
        targetPercent,
        rate);
  }

  /** The operating point in one sentence. */
  String sentence() {
    String where =
        rate == 0 ? "at maximum throughput" : String.format(Locale.ROOT, "at %,d msg/s", rate);
    String ran =
        Double.isFinite(medianPercent)
            ? String.format(
                Locale.ROOT,
                "the unpinned trials ran at %.1f%% of the server CPU%s (median)",
                medianPercent,
                serverCpus == 1 ? "" : "s")
            : "no unpinned trial was usable to check where the trials ran";
    if (calibration.isEmpty()) {
      return "Operating point: " + where + ", fixed by --rate; " + ran + ".";
    }
    return String.format(
        Locale.ROOT,
        "Operating point: %s, %s against the %.0f%% target (%s).",
        where,
        ran,
        targetPercent,
        calibration.get().describe());
  }
}
