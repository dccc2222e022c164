package io.github.affinitykit.bench.load;

import io.github.affinitykit.bench.load.Calibration.Point;
import io.github.affinitykit.bench.load.Calibration.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The calibration's second stage. The search's answer is one probe on one gateway JVM that has run
 * for a while, and neither is what the trials see: one probe's CPU% scatters by a few points (seen
 * on a quiet 2-CPU machine: 2-4 points at 80%), a fresh JVM warmed to steady state reads more CPU
 * than one warmed for a minute, and CPU% rises slowly with the rate (about as its square root), so
 * the rate moves by twice the CPU%'s relative error. The refinement probes a ladder of rates around
 * the search's answer ({@link #LADDER}) for {@code rounds} rounds, each round in the other order
 * (so a drifting machine does not tilt the fit), each probe on a gateway JVM of its own warmed to
 * steady state exactly as a trial's is, and answers the {@link CalibrationFit} through the warm,
 * kept-up ones. Where that fit is not precise (the target outside the probed rates, or a 95%
 * interval wider than ±{@link #PRECISION} of the rate) it probes one round more, the ladder centred
 * on the fit's answer, and fits all of them: in six quiet default runs on a 2-CPU machine the
 * trials missed the target by 3.5 points or more in exactly the three whose fit was not precise
 * (two outside the span, one ±10%), and landed within 2.5 in the three whose fit was (±4-6%). It
 * refines only an answer near the target (within twice the tolerance): elsewhere the curve's local
 * shape says nothing about the target's.
 *
 * <p>Thread safety: a value; {@link #refine} calls its probe from the calling thread only.
 *
 * @param rounds rounds of the ladder; 0 = no refinement
 * @param budgetNs no probe starts that would end after this long since the refinement began
 */
record CalibrationRefinement(int rounds, long budgetNs) {
  /** The rates probed, as multiples of the search's answer. */
  private static final double[] LADDER = {0.85, 1.0, 1.15};

  /** Probes a round of the ladder takes. */
  static final int RUNGS = LADDER.length;

  /** The 95% interval's half-width, as a share of the rate, that needs no round more. */
  static final double PRECISION = 0.05;

  /** Validates. */
  CalibrationRefinement {
    if (rounds < 0 || budgetNs < 0) {
      throw new IllegalArgumentException(
          "refinement: rounds " + rounds + ", budget " + budgetNs + " ns (expected: >= 0, >= 0)");
    }
  }

  /**
   * Refines {@code searched} with {@code fresh}, a probe on a gateway JVM of its own, timing probes
   * by {@code clock} (ns).
   */
  Result refine(Result searched, Calibration.Probe fresh, LongSupplier clock)
      throws InterruptedException {
    Objects.requireNonNull(searched, "searched");
    Objects.requireNonNull(fresh, "fresh");
    Point best = searched.best();
    boolean near =
        best.steady()
            && best.keptUp()
            && Math.abs(best.cpuPercent() - searched.target()) <= 2 * searched.tolerance();
    if (rounds == 0) {
      return searched;
    }
    if (!near) {
      return new Result(
          searched.target(),
          searched.tolerance(),
          best,
          searched.probes(),
          searched.stop(),
          CalibrationFit.none(CalibrationFit.Outcome.NOT_NEAR));
    }
    List<Point> ladder = new ArrayList<>();
    long[] time = {clock.getAsLong(), 0}; // when the refinement began, the last probe's length
    boolean inBudget = true;
    for (int round = 0; round < rounds && inBudget; round++) {
      inBudget = round(ladder, best.rate(), round, fresh, clock, time);
    }
    CalibrationFit fit = CalibrationFit.of(searched.target(), fitted(ladder));
    if (inBudget && !precise(fit)) { // one round more, where the fit says the target is
      round(ladder, fit.usable() ? fit.rate() : best.rate(), rounds, fresh, clock, time);
      fit = CalibrationFit.of(searched.target(), fitted(ladder));
    }
    List<Point> all = new ArrayList<>(searched.probes());
    all.addAll(ladder);
    return new Result(searched.target(), searched.tolerance(), best, all, searched.stop(), fit);
  }

  /** The most probes a refinement takes: its rounds and the one more an imprecise fit adds. */
  int maxProbes() {
    return rounds == 0 ? 0 : (rounds + 1) * RUNGS;
  }

  /** Whether {@code fit} needs no round more: inside the probed rates, within ±PRECISION. */
  static boolean precise(CalibrationFit fit) {
    return fit.outcome() == CalibrationFit.Outcome.FITTED
        && (fit.high() - fit.low()) / 2.0 <= PRECISION * fit.rate();
  }

  /**
   * Probes round {@code round} of the ladder around {@code center} into {@code ladder} (odd rounds
   * from the top down); false if a probe did not start because it would have ended after the budget
   * (a probe is taken to last as long as the one before it). {@code time}: when the refinement
   * began and how long the last probe took, ns; updated.
   */
  private boolean round(
      List<Point> ladder,
      long center,
      int round,
      Calibration.Probe fresh,
      LongSupplier clock,
      long[] time)
      throws InterruptedException {
    for (int i = 0; i < LADDER.length; i++) {
      double f = LADDER[round % 2 == 0 ? i : LADDER.length - 1 - i];
      long t0 = clock.getAsLong();
      if (t0 - time[0] + time[1] > budgetNs) {
        return false;
      }
      ladder.add(fresh.at(Steering.round(center * f)));
      time[1] = clock.getAsLong() - t0;
    }
    return true;
  }

  /** The ladder's probes the fit uses: warm and kept up. */
  static List<Point> fitted(List<Point> ladder) {
    return ladder.stream().filter(p -> p.steady() && p.keptUp() && p.cpuPercent() > 0).toList();
  }
}
