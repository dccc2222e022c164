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
 * kept-up ones. It refines only an answer near the target (within twice the tolerance): elsewhere
 * the curve's local shape says nothing about the target's.
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
    long began = clock.getAsLong();
    long lastNs = 0;
    outer:
    for (int round = 0; round < rounds; round++) {
      for (int i = 0; i < LADDER.length; i++) {
        double f = LADDER[round % 2 == 0 ? i : LADDER.length - 1 - i];
        long t0 = clock.getAsLong();
        if (t0 - began + lastNs > budgetNs) {
          break outer;
        }
        ladder.add(fresh.at(Steering.round(best.rate() * f)));
        lastNs = clock.getAsLong() - t0;
      }
    }
    List<Point> all = new ArrayList<>(searched.probes());
    all.addAll(ladder);
    CalibrationFit fit = CalibrationFit.of(searched.target(), fitted(ladder));
    return new Result(searched.target(), searched.tolerance(), best, all, searched.stop(), fit);
  }

  /** The ladder's probes the fit uses: warm and kept up. */
  static List<Point> fitted(List<Point> ladder) {
    return ladder.stream().filter(p -> p.steady() && p.keptUp() && p.cpuPercent() > 0).toList();
  }
}
