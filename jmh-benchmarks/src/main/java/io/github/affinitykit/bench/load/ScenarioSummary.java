package io.github.affinitykit.bench.load;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;

/**
 * One scenario's trials summarised: medians and ranges over its clean trials (those under the
 * pressure threshold; all trials when none is clean, marked so), and their merged latency.
 *
 * <p>Thread safety: immutable after construction.
 *
 * @param scenario the scenario
 * @param trials the trials summarised
 * @param allContaminated whether every trial exceeded the pressure threshold
 * @param latencyNs the merged latency histogram of the summarised trials
 */
record ScenarioSummary(
    Scenario scenario, List<Trial> trials, boolean allContaminated, Histogram latencyNs) {

  static ScenarioSummary of(Scenario s, List<Trial> all) {
    List<Trial> mine = new ArrayList<>();
    List<Trial> clean = new ArrayList<>();
    for (Trial t : all) {
      if (t.scenario() == s) {
        mine.add(t);
        if (!t.contaminated()) {
          clean.add(t);
        }
      }
    }
    List<Trial> used = clean.isEmpty() ? mine : clean;
    Histogram merged = new Histogram(3);
    used.forEach(t -> merged.add(t.load().latencyNs()));
    return new ScenarioSummary(s, List.copyOf(used), clean.isEmpty() && !mine.isEmpty(), merged);
  }

  /** {median, min, max} of {@code metric} over the trials. */
  double[] stats(ToDoubleFunction<Trial> metric) {
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
