package io.github.affinitykit.bench.load;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * One scenario against the baseline on one metric: the ratio of the trials' means with a 95%
 * percentile-bootstrap interval (10,000 resamples of each side, fixed seed, so the same trials give
 * the same interval), and the one sentence that interval supports. An interval containing 1 is "no
 * difference within noise"; fewer than three trials on either side is "cannot say": with two, the
 * bootstrap interval is the whole cross range of the trials, and two trials on each side of equal
 * servers fall wholly apart one time in three. Even at three, a percentile bootstrap is narrower
 * than a t interval would be: more repeats, not a wider claim, are the cure.
 *
 * <p>Thread safety: immutable.
 *
 * @param scenario the scenario's label ({@code pinned})
 * @param metric what was compared
 * @param n trials of the scenario
 * @param baselineN trials of the baseline
 * @param ratio mean(scenario) / mean(baseline); NaN when it cannot be computed
 * @param low the interval's 2.5th percentile; NaN when not computed
 * @param high the interval's 97.5th percentile; NaN when not computed
 * @param outcome which kind of sentence the interval supports
 * @param sentence the claim, or the absence of one, in words
 */
public record Verdict(
    String scenario,
    Metric metric,
    int n,
    int baselineN,
    double ratio,
    double low,
    double high,
    Outcome outcome,
    String sentence) {

  /** How the intervals are computed, to print beside them. */
  public static final String METHOD =
      "95% intervals: percentile bootstrap of the ratio of means, 10,000 resamples, seed 20261123";

  /** Trials each side needs before any claim. */
  static final int MIN_TRIALS = 3;

  private static final int RESAMPLES = 10_000;
  private static final long SEED = 20261123L;

  /** What a verdict compares; {@code lowerIsBetter} only decides the words, not the test. */
  public enum Metric {
    /** Server CPU µs per echoed message. */
    CPU_PER_MESSAGE("used %s%% %s CPU per message", "less", "more"),
    /** 99th percentile latency from the intended send time. */
    P99("had a %s%% %s p99 latency", "lower", "higher"),
    /** Highest offered rate sustained with p99 under the SLO. */
    CAPACITY("sustained %s%% %s load with p99 under the SLO", "less", "more");

    private final String template;
    private final String below;
    private final String above;

    Metric(String template, String below, String above) {
      this.template = template;
      this.below = below;
      this.above = above;
    }
  }

  /** The kind of sentence a comparison supports. */
  public enum Outcome {
    /** The whole interval lies below 1. */
    LOWER,
    /** The whole interval lies above 1. */
    HIGHER,
    /** The interval contains 1. */
    NO_DIFFERENCE,
    /** Too few trials (or no usable values) for an interval. */
    CANNOT_SAY
  }

  /** Validates. */
  public Verdict {
    Objects.requireNonNull(scenario, "scenario");
    Objects.requireNonNull(metric, "metric");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(sentence, "sentence");
  }

  /**
   * Compares {@code values} of {@code scenario} with {@code baseline} (the unpinned trials) on
   * {@code metric}. Non-finite values are left out.
   */
  public static Verdict of(String scenario, Metric metric, double[] values, double[] baseline) {
    double[] a = finite(values);
    double[] b = finite(baseline);
    if (a.length < MIN_TRIALS || b.length < MIN_TRIALS) {
      return cannotSay(
          scenario,
          metric,
          a.length,
          b.length,
          String.format(
              Locale.ROOT,
              "cannot say at n=%d/%d (needs at least 3 trials on each side)",
              a.length,
              b.length));
    }
    double ratio = mean(a) / mean(b);
    double[] ci = interval(a, b);
    if (!Double.isFinite(ratio) || !Double.isFinite(ci[0]) || !Double.isFinite(ci[1])) {
      return cannotSay(
          scenario, metric, a.length, b.length, "cannot say (the baseline's mean is zero)");
    }
    Outcome o = ci[1] < 1 ? Outcome.LOWER : ci[0] > 1 ? Outcome.HIGHER : Outcome.NO_DIFFERENCE;
    return new Verdict(
        scenario,
        metric,
        a.length,
        b.length,
        ratio,
        ci[0],
        ci[1],
        o,
        sentence(scenario, metric, o, ratio, ci, a.length, b.length));
  }

  private static Verdict cannotSay(
      String scenario, Metric metric, int n, int baselineN, String why) {
    return new Verdict(
        scenario,
        metric,
        n,
        baselineN,
        Double.NaN,
        Double.NaN,
        Double.NaN,
        Outcome.CANNOT_SAY,
        scenario + " vs unpinned, " + name(metric) + ": " + why);
  }

  private static String sentence(
      String scenario, Metric m, Outcome o, double ratio, double[] ci, int n, int baselineN) {
    String trials = n == baselineN ? "n=" + n : "n=" + n + "/" + baselineN;
    if (o == Outcome.NO_DIFFERENCE) {
      return String.format(
          Locale.ROOT,
          "%s vs unpinned, %s: no difference within noise at %s (ratio %.2f [%.2f\u2013%.2f])",
          scenario,
          name(m),
          trials,
          ratio,
          ci[0],
          ci[1]);
    }
    boolean below = o == Outcome.LOWER;
    double mid = below ? 1 - ratio : ratio - 1;
    double from = below ? 1 - ci[1] : ci[0] - 1;
    double to = below ? 1 - ci[0] : ci[1] - 1;
    return String.format(
        Locale.ROOT,
        "%s %s [%s\u2013%s%%] (%s)",
        scenario,
        String.format(Locale.ROOT, m.template, pct(mid), below ? m.below : m.above),
        pct(from),
        pct(to),
        trials);
  }

  private static String name(Metric m) {
    return switch (m) {
      case CPU_PER_MESSAGE -> "CPU per message";
      case P99 -> "p99";
      case CAPACITY -> "capacity";
    };
  }

  private static String pct(double fraction) {
    return String.format(Locale.ROOT, "%.0f", fraction * 100);
  }

  /** {2.5th, 97.5th} percentiles of the bootstrapped ratio of means. */
  private static double[] interval(double[] a, double[] b) {
    SplittableRandom random = new SplittableRandom(SEED);
    double[] ratios = new double[RESAMPLES];
    int kept = 0;
    for (int i = 0; i < RESAMPLES; i++) {
      double den = resampledMean(b, random);
      double num = resampledMean(a, random);
      if (den != 0) {
        ratios[kept++] = num / den;
      }
    }
    if (kept == 0) {
      return new double[] {Double.NaN, Double.NaN};
    }
    double[] sorted = Arrays.copyOf(ratios, kept);
    Arrays.sort(sorted);
    return new double[] {
      sorted[(int) (0.025 * (kept - 1))], sorted[(int) Math.ceil(0.975 * (kept - 1))]
    };
  }

  private static double resampledMean(double[] v, SplittableRandom random) {
    double sum = 0;
    for (int i = 0; i < v.length; i++) {
      sum += v[random.nextInt(v.length)];
    }
    return sum / v.length;
  }

  private static double mean(double[] v) {
    return Arrays.stream(v).average().orElse(Double.NaN);
  }

  private static double[] finite(double[] v) {
    return Arrays.stream(v).filter(Double::isFinite).toArray();
  }
}
