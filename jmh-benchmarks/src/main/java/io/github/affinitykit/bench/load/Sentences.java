package io.github.affinitykit.bench.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.LongSummaryStatistics;
import java.util.stream.Collectors;

/**
 * The verdict's sentences about scenarios and trials: one per scenario, the collapsed "cannot say",
 * and what became of the trials that were not usable.
 *
 * <p>Thread safety: stateless.
 */
final class Sentences {
  private Sentences() {}

  /**
   * One scenario's sentence, such as: Against unpinned, pinned used the same CPU per message within
   * noise (×0.99 [0.93–1.06]), had a 60% higher p99 [9–162%] and sustained 35% less load [2–61%] (3
   * usable trials a side).
   */
  static String scenario(ScenarioSummary s, ScenarioSummary base, List<Verdict> v) {
    String trials =
        s.trials().size() == base.trials().size()
            ? trials(s.trials().size()) + " a side"
            : trials(s.trials().size()) + ", unpinned " + base.trials().size();
    return String.format(
        Locale.ROOT,
        "Against unpinned, %s %s, %s and %s (%s).",
        s.scenario().label(),
        v.get(0).clause(),
        v.get(1).clause(),
        capacity(s, base, v.get(2)),
        trials);
  }

  /** The capacity clause, saying so where a trial sustained no probed rate (never "0"). */
  private static String capacity(ScenarioSummary s, ScenarioSummary base, Verdict v) {
    long below = s.trials().stream().filter(t -> t.capacity().rate() == 0).count();
    if (below == 0 || s.trials().isEmpty()) {
      return v.clause();
    }
    long lowest = s.trials().stream().mapToLong(t -> t.capacity().lowest()).min().orElse(0);
    if (below == s.trials().size()) {
      boolean floor = s.trials().stream().allMatch(t -> t.capacity().outOfReach());
      return String.format(
          Locale.ROOT,
          "%s (%,d msg/s) in every trial, where unpinned's median capacity was %s msg/s",
          floor
              ? "p99 stayed over the SLO down to the ramp's floor"
              : "its capacity was below the lowest rate probed",
          lowest,
          fmt(base.stats(Trial::capacityRate)[0]));
    }
    return String.format(
        Locale.ROOT,
        "%s, %d of its trials below the lowest rate probed (%,d msg/s)",
        v.clause(),
        below,
        lowest);
  }

  /**
   * Where some usable trials' capacity ramps went down to their floor with p99 still over the SLO,
   * one sentence saying so and at what rate the others met it: The p99 SLO (5 ms) is out of reach
   * on this machine in 9 of 21 usable trials: p99 stayed over it from the operating point (58,500
   * msg/s) down to 1,828 msg/s; where it was met, the highest rate that met it was 3,656–14,625
   * msg/s. Empty if no trial's ramp reached its floor.
   */
  static String sloOutOfReach(Duration slo, List<ScenarioSummary> summaries) {
    List<Trial> all = summaries.stream().flatMap(s -> s.trials().stream()).toList();
    List<Trial> out = all.stream().filter(t -> t.capacity().outOfReach()).toList();
    if (out.isEmpty()) {
      return "";
    }
    long floor = out.stream().mapToLong(t -> t.capacity().lowest()).max().orElse(0);
    LongSummaryStatistics met =
        all.stream()
            .filter(t -> t.capacity().rate() > 0)
            .mapToLong(t -> t.capacity().rate())
            .summaryStatistics();
    return String.format(
        Locale.ROOT,
        "The p99 SLO (%d ms) is out of reach on this machine in %d of %d usable trials: p99 stayed"
            + " over it from the operating point (%,d msg/s) down to %,d msg/s; %s.",
        slo.toMillis(),
        out.size(),
        all.size(),
        out.stream().mapToLong(Trial::rate).max().orElse(0),
        floor,
        met.getCount() == 0
            ? "no trial met it at any rate probed"
            : met.getMin() == met.getMax()
                ? String.format(
                    Locale.ROOT,
                    "where it was met, the highest rate that met it was %,d msg/s",
                    met.getMax())
                : String.format(
                    Locale.ROOT,
                    "where it was met, the highest rate that met it was %,d\u2013%,d msg/s",
                    met.getMin(),
                    met.getMax()));
  }

  /** The scenarios without a claim, in one sentence: {@code Cannot say for taskset (2 ...}. */
  static String cannotSay(List<ScenarioSummary> mute, ScenarioSummary base) {
    String which =
        mute.stream()
            .map(s -> s.scenario().label() + " (" + trials(s.trials().size()) + ")")
            .collect(Collectors.joining(", "));
    return String.format(
        Locale.ROOT,
        "Cannot say for %s: a claim needs %d usable trials on each side, and unpinned has %d;"
            + " run more --repeats, or on a quieter machine.",
        which,
        Verdict.MIN_TRIALS,
        base.trials().size());
  }

  /** What became of the trials that were not usable: measured again, or lost to the budget. */
  static String trials(LoadTestOptions o, LoadOutcome outcome, List<ScenarioSummary> summaries) {
    List<Trial> unusable = outcome.trials().stream().filter(t -> !t.usable()).toList();
    long cold = unusable.stream().filter(t -> !t.warmup().steady()).count();
    long disturbed = unusable.stream().filter(Trial::contaminated).count();
    String what =
        String.format(
            Locale.ROOT,
            "%d of %d trials were not usable (not warm: %d, disturbed by other processes: %d)",
            unusable.size(),
            outcome.trials().size(),
            cold,
            disturbed);
    List<String> lacking = new ArrayList<>();
    boolean ranAll = true;
    for (ScenarioSummary s : summaries) {
      if (s.trials().size() < o.repeats()) {
        lacking.add(s.scenario().label() + " has " + s.trials().size());
      }
      ranAll &= s.trials().size() + s.unusable() >= o.repeats();
    }
    if (!o.search().remeasure() && ranAll && !unusable.isEmpty()) {
      return what + "; --quick measures each trial once (run without it to measure them again).";
    }
    if (lacking.isEmpty()) {
      String per = perArm(o.repeats(), summaries);
      return unusable.isEmpty()
          ? String.format(
              Locale.ROOT,
              "Every trial was warm and undisturbed: %s in %s.",
              per,
              LoadTest.human(outcome.elapsed()))
          : what
              + String.format(
                  Locale.ROOT,
                  " and were measured again: every arm has its %s (%s).",
                  per,
                  LoadTest.human(outcome.elapsed()));
    }
    return (unusable.isEmpty() ? "The" : what + ", and the")
        + String.format(
            Locale.ROOT,
            " %s budget ran out before every arm had its %s (%s): run it on a"
                + " quieter machine, allow more time with --budget, or trade --duration for"
                + " --repeats.",
            LoadTest.human(o.search().budget()),
            trials(o.repeats()),
            lacking.size() == summaries.size()
                    && summaries.stream().allMatch(x -> x.trials().isEmpty())
                ? "no arm has one"
                : String.join(", ", lacking));
  }

  /**
   * {@code 3 usable trials per arm}, or with the rounds the budget had room for: {@code 4 usable
   * trials per arm (--repeats 3, and 1 more round the budget had room for)}.
   */
  static String perArm(int repeats, List<ScenarioSummary> summaries) {
    int least = summaries.stream().mapToInt(s -> s.trials().size()).min().orElse(0);
    int most = summaries.stream().mapToInt(s -> s.trials().size()).max().orElse(0);
    if (most <= repeats) {
      return trials(repeats) + " per arm";
    }
    if (least == most) {
      return String.format(
          Locale.ROOT,
          "%s per arm (--repeats %d, and %d more round%s the budget had room for)",
          trials(least),
          repeats,
          least - repeats,
          least - repeats == 1 ? "" : "s");
    }
    return String.format(
        Locale.ROOT,
        "%d to %d usable trials per arm (--repeats %d, and rounds more the budget had room for;"
            + " it ended the last before %s)",
        least,
        most,
        repeats,
        summaries.stream()
            .filter(s -> s.trials().size() < most)
            .map(s -> s.scenario().label())
            .collect(Collectors.joining(", ")));
  }

  /** {@code 1 usable trial}, {@code 3 usable trials}. */
  static String trials(int n) {
    return n + (n == 1 ? " usable trial" : " usable trials");
  }

  private static String fmt(double v) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%,.0f", v) : "unknown";
  }
}
