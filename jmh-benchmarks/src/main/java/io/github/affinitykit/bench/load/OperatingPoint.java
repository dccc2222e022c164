package io.github.affinitykit.bench.load;

import java.util.List;
import java.util.Locale;
import java.util.LongSummaryStatistics;
import java.util.Optional;

/**
 * Where the trials actually ran: the unpinned gateway's median CPU against the calibration's
 * target, both in % of the server CPUs. More than {@link #MISSED_POINTS} away, the operating point
 * was missed, and the verdict's first line says so and by how much: every figure then holds at the
 * rate that ran, not at the operating point the run was meant to answer for.
 *
 * <p>The median is over every usable trial of an unpinned gateway: the unpinned arm's and the A/A
 * arm's, which runs the same gateway under the same conditions (that is what makes it a control).
 * One fresh gateway's CPU at a fixed rate scatters by 4-7 points (standard deviation, 3 s windows,
 * seen on a quiet 2-CPU machine), so the median of one arm's 3-5 trials wanders by 2-3 points on
 * its own; both arms' trials halve its variance. The verdict names how many trials it took.
 *
 * <p>Thread safety: immutable.
 *
 * @param rate the first round's offered rate, msg/s: the calibrated or fixed one (0 = maximum
 *     throughput)
 * @param lowRate the lowest rate a trial ran at, msg/s ({@link OperatingRate} re-centres the
 *     calibrated rate round by round; {@code rate} before any trial ran)
 * @param highRate the highest rate a trial ran at, msg/s ({@code rate} before any trial ran)
 * @param calibration how the rate was found; empty when {@code --rate} fixed it
 * @param targetPercent the target, % of the server CPUs
 * @param serverCpus the server's CPUs
 * @param medianPercent the usable unpinned trials' median CPU, % of the server CPUs (NaN: none)
 * @param trials how many trials the median is of
 * @param arms how many arms they came from (2: the A/A arm's included)
 */
record OperatingPoint(
    long rate,
    long lowRate,
    long highRate,
    Optional<Calibration.Result> calibration,
    double targetPercent,
    int serverCpus,
    double medianPercent,
    int trials,
    int arms) {

  /** The largest distance from the target, CPU% points, that still counts as on target. */
  static final double MISSED_POINTS = 5;

  /** No unpinned trial to tell where the trials ran. */
  static OperatingPoint unknown(
      long rate, Optional<Calibration.Result> c, double target, int cpus) {
    return new OperatingPoint(rate, rate, rate, c, target, cpus, Double.NaN, 0, 0);
  }

  /**
   * The operating point of the usable trials of {@code unpinned} (the unpinned and A/A arms), the
   * run's {@code trials} at the rates of {@code all}.
   */
  static OperatingPoint of(
      long rate,
      List<Trial> all,
      Optional<Calibration.Result> c,
      double target,
      int cpus,
      List<ScenarioSummary> unpinned) {
    List<Trial> trials = unpinned.stream().flatMap(s -> s.trials().stream()).toList();
    double median = ScenarioSummary.stats(trials, Trial::serverCpuPercent)[0];
    int n = trials.size();
    LongSummaryStatistics rates = all.stream().mapToLong(Trial::rate).summaryStatistics();
    return new OperatingPoint(
        rate,
        rates.getCount() == 0 ? rate : rates.getMin(),
        rates.getCount() == 0 ? rate : rates.getMax(),
        c,
        target,
        cpus,
        median / cpus,
        n,
        unpinned.size());
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
            + " %.1f points %s the %.0f%% target; every figure below holds at %s, not at the"
            + " target.",
        medianPercent,
        serverCpus == 1 ? "" : "s",
        Math.abs(off),
        off < 0 ? "below" : "above",
        targetPercent,
        rates());
  }

  /** The operating point in one sentence. */
  String sentence() {
    String where =
        rate == 0
            ? "at maximum throughput"
            : lowRate == highRate
                ? "at " + rates()
                : String.format(
                    Locale.ROOT,
                    "at %s (the calibrated %,d, each round's rate re-centred on the unpinned trials"
                        + " before it)",
                    rates(),
                    rate);
    String ran =
        Double.isFinite(medianPercent)
            ? String.format(
                Locale.ROOT,
                "the unpinned trials ran at %.1f%% of the server CPU%s (median of %d%s)",
                medianPercent,
                serverCpus == 1 ? "" : "s",
                trials,
                arms > 1 ? ", the A/A arm's included" : "")
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

  /** The rates the trials ran at: {@code 93,400 msg/s} or {@code 90,100-95,200 msg/s}. */
  String rates() {
    return lowRate == highRate
        ? String.format(Locale.ROOT, "%,d msg/s", lowRate)
        : String.format(Locale.ROOT, "%,d\u2013%,d msg/s", lowRate, highRate);
  }
}
