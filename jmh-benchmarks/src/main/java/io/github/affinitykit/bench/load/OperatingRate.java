package io.github.affinitykit.bench.load;

import java.util.List;
import java.util.Locale;

/**
 * The rate each round of trials runs at: the calibration's answer for the first round, then, before
 * every later round, where the usable unpinned trials so far put the target.
 *
 * <p>The calibration finds the rate at which fresh unpinned gateways use the target CPU% in the
 * minutes before the trials; on a shared or virtual machine the cost of a message moves over those
 * minutes (seen on a quiet 2-vCPU VM: both unpinned arms of a run agreeing on 74.7% where nine
 * calibration probes had read 78-80% at that rate, or on 83.5% in another run), and no calibration
 * can foresee that. So the trials measure where they run: every usable trial of an unpinned gateway
 * (the unpinned arm's and the A/A arm's) says at what rate its gateway would have met the target,
 * {@code rate × (target / CPU%)^(1/b)}, with {@code b} the exponent of the calibration's fit
 * ({@code CPU% ∝ rate^b}), and the next round runs at the geometric mean of all of them so far,
 * kept within ±{@link #MAX_SHIFT} of the calibrated rate. The calibration places the first round
 * only: weighed in later, a drift it could not see would stay in every round (simulated with the
 * scatter and drift measured on that VM, 4.3 and 3 points standard deviation: the median of 10
 * trials lands within 3 points of the target in 94% of runs this way, 92% with the calibration
 * counted as one trial more, 62% without re-centring). Every arm of a round runs at that round's
 * rate and the rounds rotate the arms, so every arm meets the same rates.
 *
 * <p>Thread safety: immutable.
 *
 * @param calibrated the calibration's answer, msg/s
 * @param targetPercent the target, CPU% summed over the server CPUs (100 = one CPU), as {@link
 *     Trial#serverCpuPercent()}
 * @param exponent {@code b}: the fit's, within [{@link #MIN_EXPONENT}, 1]; 1 without a fit
 */
record OperatingRate(long calibrated, double targetPercent, double exponent) {
  /** The furthest a round's rate moves from the calibrated rate, as a share of it. */
  static final double MAX_SHIFT = 0.25;

  /**
   * The smallest exponent used: a fit that reads CPU% as flatter than this would turn one trial's
   * scatter into a large step of the rate.
   */
  static final double MIN_EXPONENT = 0.3;

  /** Validates. */
  OperatingRate {
    if (calibrated <= 0 || !(targetPercent > 0) || !(exponent >= MIN_EXPONENT && exponent <= 1)) {
      throw new IllegalArgumentException(
          String.format(
              Locale.ROOT,
              "operating rate: %d msg/s, target %.1f%%, exponent %.2f (expected: > 0, > 0, %.1f-1)",
              calibrated,
              targetPercent,
              exponent,
              MIN_EXPONENT));
    }
  }

  /** Re-centres around {@code c}'s answer, with its fit's exponent where it has one. */
  static OperatingRate of(Calibration.Result c) {
    double b = c.fit().exponent();
    return new OperatingRate(
        c.rate(),
        c.target(),
        c.fit().usable() && Double.isFinite(b) ? Math.max(MIN_EXPONENT, Math.min(1, b)) : 1);
  }

  /** The rate the next round runs at, after {@code trials} (every trial so far, in any order). */
  long next(List<Trial> trials) {
    double sum = 0;
    int n = 0;
    for (Trial t : trials) {
      if (counts(t)) {
        sum += Math.log(t.rate()) + Math.log(targetPercent / t.serverCpuPercent()) / exponent;
        n++;
      }
    }
    if (n == 0) {
      return calibrated;
    }
    double mean = Math.exp(sum / n);
    double bounded =
        Math.max(calibrated * (1 - MAX_SHIFT), Math.min(calibrated * (1 + MAX_SHIFT), mean));
    return Steering.round(bounded);
  }

  /** Why the rate moved, in a line of progress. */
  String describe(long from, long to, List<Trial> trials) {
    List<Trial> counted = trials.stream().filter(OperatingRate::counts).toList();
    return String.format(
        Locale.ROOT,
        "rate re-centred %,d -> %,d msg/s: the %d usable unpinned trials so far ran at a median"
            + " %.1f%% CPU (100 = one CPU) against the %.0f%% target, and CPU%% \u221d rate^%.2f",
        from,
        to,
        counted.size(),
        ScenarioSummary.stats(counted, Trial::serverCpuPercent)[0],
        targetPercent,
        exponent);
  }

  private static boolean counts(Trial t) {
    return t.usable() && t.scenario().unpinnedGateway() && t.rate() > 0 && t.serverCpuPercent() > 0;
  }
}
