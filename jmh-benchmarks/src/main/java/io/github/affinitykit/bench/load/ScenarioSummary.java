package io.github.affinitykit.bench.load;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;

/**
 * One arm's usable trials summarised (warm, and not disturbed by other processes): medians and
 * ranges, and their merged latency. Trials that were not usable are counted, never summarised.
 *
 * <p>Thread safety: immutable after construction.
 *
 * @param scenario the arm
 * @param trials the usable trials
 * @param unusable the arm's trials left out (not warm, or disturbed)
 * @param latencyNs the merged latency histogram of the usable trials
 */
record ScenarioSummary(Scenario scenario, List<Trial> trials, int unusable, Histogram latencyNs) {

  static ScenarioSummary of(Scenario s, List<Trial> all) {
    List<Trial> used = new ArrayList<>();
    int unusable = 0;
    for (Trial t : all) {
      if (t.scenario() == s) {
        if (t.usable()) {
          used.add(t);
        } else {
          unusable++;
        }
      }
    }
    Histogram merged = new Histogram(3);
    used.forEach(t -> merged.add(t.load().latencyNs()));
    return new ScenarioSummary(s, List.copyOf(used), unusable, merged);
  }

  /** {@code metric} of every usable trial, in the order run. */
  double[] values(ToDoubleFunction<Trial> metric) {
    return trials.stream().mapToDouble(metric).toArray();
  }

  /** {median, min, max} of {@code metric} over the trials. */
  double[] stats(ToDoubleFunction<Trial> metric) {
    return stats(trials, metric);
  }

  /** {median, min, max} of {@code metric} over {@code trials}, NaN where none is finite. */
  static double[] stats(List<Trial> trials, ToDoubleFunction<Trial> metric) {
    double[] v = trials.stream().mapToDouble(metric).filter(Double::isFinite).sorted().toArray();
    if (v.length == 0) {
      return new double[] {Double.NaN, Double.NaN, Double.NaN};
    }
    double median =
        v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    return new double[] {median, v[0], v[v.length - 1]};
  }

  /** Median with its range: {@code 65.2 [63.1-67.0]}. */
  String cell(ToDoubleFunction<Trial> metric, String format) {
    double[] s = stats(metric);
    if (Double.isNaN(s[0])) {
      return "-";
    }
    return String.format(format, s[0])
        + " ["
        + String.format(format, s[1]).trim()
        + "-"
        + String.format(format, s[2]).trim()
        + "]";
  }

  long lost() {
    return trials.stream().mapToLong(t -> t.load().lost()).sum();
  }

  long errors() {
    return trials.stream().mapToLong(t -> t.load().errors() + t.load().outOfOrder()).sum();
  }

  static List<Double> percentiles() {
    return Arrays.asList(0.0, 50.0, 75.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95, 99.99, 99.999);
  }
}
