package io.github.affinitykit.bench.load;

import io.github.affinitykit.bench.load.Verdict.Metric;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The verdict a person reads, sentence by sentence, and the numbers behind it: the operating point
 * missed (first, if it was), the controls withholding every claim (if they failed), one sentence
 * per scenario against unpinned (CPU per message, p99 and capacity together, each with its
 * interval), the scenarios it cannot say anything about in one sentence with the reason, then the
 * controls, the operating point, the trials that were not usable, and the method.
 *
 * <p>Thread safety: immutable.
 *
 * @param lines the sentences, in order
 * @param verdicts every scenario's comparison with unpinned, per metric
 * @param controls how the controls came out
 * @param point where the trials ran
 */
record Judgement(
    List<String> lines, List<Verdict> verdicts, Controls controls, OperatingPoint point) {

  /** Validates. */
  Judgement {
    lines = List.copyOf(lines);
    verdicts = List.copyOf(verdicts);
    Objects.requireNonNull(controls, "controls");
    Objects.requireNonNull(point, "point");
  }

  /** Judges {@code outcome}'s usable trials, summarised per arm in {@code summaries}. */
  static Judgement of(LoadTestOptions o, LoadOutcome outcome, List<ScenarioSummary> summaries) {
    Optional<ScenarioSummary> base = find(summaries, Scenario.UNPINNED);
    if (base.isEmpty()) {
      OperatingPoint none =
          OperatingPoint.unknown(
              outcome.rate(),
              outcome.calibration(),
              o.search().targetCpuPercent(),
              o.serverCpus().size());
      return new Judgement(
          List.of("Nothing to compare: the verdict needs the unpinned arm and one other."),
          List.of(),
          Controls.off(),
          none);
    }
    Controls controls = controls(summaries, base.get(), outcome.handicap());
    OperatingPoint point =
        OperatingPoint.of(
            outcome.rate(),
            outcome.trials(),
            outcome.calibration(),
            o.search().targetCpuPercent(),
            o.serverCpus().size(),
            summaries.stream().filter(s -> s.scenario().unpinnedGateway()).toList());
    List<Verdict> verdicts = new ArrayList<>();
    List<String> lines = new ArrayList<>();
    addIfAny(lines, point.missedLine());
    addIfAny(lines, controls.withheld());
    List<ScenarioSummary> mute = new ArrayList<>();
    for (ScenarioSummary s : summaries) {
      if (s.scenario() == Scenario.UNPINNED || s.scenario().control()) {
        continue;
      }
      List<Verdict> mine = new ArrayList<>();
      for (Metric m : Metric.values()) {
        mine.add(Verdict.of(s.scenario().label(), m, s.values(m::of), base.get().values(m::of)));
      }
      verdicts.addAll(mine);
      if (mine.stream().allMatch(v -> v.outcome() == Verdict.Outcome.UNJUDGED)) {
        mute.add(s);
      } else if (controls.allowClaims()) {
        lines.add(Sentences.scenario(s, base.get(), mine));
      }
    }
    if (controls.allowClaims() && !mute.isEmpty()) {
      lines.add(Sentences.cannotSay(mute, base.get()));
    }
    addIfAny(lines, Sentences.sloOutOfReach(o.search().slo(), summaries));
    lines.add(controls.sentence());
    lines.add(point.sentence());
    lines.add(Sentences.trials(o, outcome, summaries));
    lines.add(method(o));
    return new Judgement(lines, verdicts, controls, point);
  }

  /** The last line: how the comparisons and the capacity were made. */
  private static String method(LoadTestOptions o) {
    return Verdict.METHOD
        + "; capacity: the highest rate sustained with p99 under "
        + o.search().slo().toMillis()
        + " ms (up from the operating point by \u00d7"
        + LoadSearch.RAMP_FACTOR
        + " while it holds; where it does not, down by halves to 1/"
        + CapacityRamp.FLOOR_DIVISOR
        + " of it; then bisected; probes measured alike, within the budget).";
  }

  private static Controls controls(List<ScenarioSummary> all, ScenarioSummary base, Handicap cost) {
    Optional<ScenarioSummary> aa = find(all, Scenario.UNPINNED_AA);
    Optional<ScenarioSummary> handicapped = find(all, Scenario.HANDICAPPED);
    return aa.isPresent() && handicapped.isPresent()
        ? Controls.judge(base, aa.get(), handicapped.get(), cost)
        : Controls.off();
  }

  private static Optional<ScenarioSummary> find(List<ScenarioSummary> all, Scenario s) {
    return all.stream().filter(x -> x.scenario() == s).findFirst();
  }

  private static void addIfAny(List<String> lines, String line) {
    if (!line.isEmpty()) {
      lines.add(line);
    }
  }
}
