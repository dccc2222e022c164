package io.github.affinitykit.bench.load;

import java.util.List;
import org.apache.commons.math3.stat.regression.SimpleRegression;

/**
 * Whether one resource stays bounded over a soak: a least-squares line through its samples of the
 * recorded window's second half (before it: the warm-up, JIT, pools filling, connections opening),
 * the slope's 95% interval, and the rule: GROWING when the slope's lower bound would add more than
 * {@link #GROWTH_PER_HOUR} of the mean level in an hour and, over the fitted window itself, more
 * than the resource's noise ({@link SoakSample.Resource#noise()}: a short soak sees only gross
 * leaks); BOUNDED otherwise; UNKNOWN with fewer than {@link #MIN_SAMPLES} values.
 *
 * <p>Thread safety: immutable.
 *
 * @param resource what was measured
 * @param verdict bounded, growing or unknown
 * @param mean the mean level over the fitted samples, in the resource's unit
 * @param slopePerHour the fitted slope, unit per hour
 * @param lowPerHour the slope interval's lower bound, unit per hour
 * @param highPerHour the slope interval's upper bound, unit per hour
 * @param samples how many samples were fitted
 */
record SoakTrend(
    SoakSample.Resource resource,
    Verdict verdict,
    double mean,
    double slopePerHour,
    double lowPerHour,
    double highPerHour,
    int samples) {

  /** Growth per hour, as a share of the mean level, above which a resource that grows is a leak. */
  static final double GROWTH_PER_HOUR = 0.05;

  /** Fewer samples than this say nothing. */
  static final int MIN_SAMPLES = 6;

  /** What the samples say. */
  enum Verdict {
    BOUNDED,
    GROWING,
    /** Too few samples, or none (the gateway does not publish it). */
    UNKNOWN,
    /** Fitted and shown, not judged: too short a soak for this resource ({@link #judged}). */
    UNJUDGED
  }

  /**
   * The shortest recorded window over which the resident set is judged: it still grows for minutes
   * while the JIT compiles (code cache, metaspace), about 1 MiB a minute here after 2 minutes; the
   * other resources are judged in any soak.
   */
  static final java.time.Duration RSS_JUDGED_FROM = java.time.Duration.ofMinutes(10);

  /** Whether a soak recording {@code recorded} judges {@code resource}. */
  static boolean judged(SoakSample.Resource resource, java.time.Duration recorded) {
    return resource != SoakSample.Resource.RSS || recorded.compareTo(RSS_JUDGED_FROM) >= 0;
  }

  /** Fits {@code resource} over the samples taken from {@code fromSeconds} on, and judges it. */
  static SoakTrend of(SoakSample.Resource resource, List<SoakSample> samples, double fromSeconds) {
    return of(resource, samples, fromSeconds, true);
  }

  /** As {@link #of(SoakSample.Resource, List, double)}; UNJUDGED unless {@code judge}. */
  static SoakTrend of(
      SoakSample.Resource resource, List<SoakSample> samples, double fromSeconds, boolean judge) {
    SimpleRegression r = new SimpleRegression();
    double sum = 0;
    double first = Double.POSITIVE_INFINITY;
    double last = Double.NEGATIVE_INFINITY;
    for (SoakSample s : samples) {
      double v = resource.of(s);
      if (s.seconds() >= fromSeconds && !Double.isNaN(v)) {
        r.addData(s.seconds() / 3600, v);
        sum += v;
        first = Math.min(first, s.seconds() / 3600);
        last = Math.max(last, s.seconds() / 3600);
      }
    }
    int n = (int) r.getN();
    if (n < MIN_SAMPLES) {
      return new SoakTrend(resource, Verdict.UNKNOWN, n == 0 ? Double.NaN : sum / n, 0, 0, 0, n);
    }
    double mean = sum / n;
    double slope = r.getSlope();
    double half = Double.isNaN(r.getSlopeConfidenceInterval()) ? 0 : r.getSlopeConfidenceInterval();
    double low = slope - half;
    boolean growing =
        low > GROWTH_PER_HOUR * Math.abs(mean) && low * (last - first) > resource.noise();
    Verdict v = !judge ? Verdict.UNJUDGED : growing ? Verdict.GROWING : Verdict.BOUNDED;
    return new SoakTrend(resource, v, mean, slope, low, slope + half, n);
  }

  /**
   * {@return one line: the resource, its level, its slope per hour with the interval, the verdict}
   */
  String line() {
    String u = resource.unit().isEmpty() ? "" : " " + resource.unit();
    return String.format(
        "%-23s %-10s mean %.1f%s, slope %+.2f%s/h [%+.2f, %+.2f] (%d samples)",
        resource.label(), verdict, mean, u, slopePerHour, u, lowPerHour, highPerHour, samples);
  }
}
