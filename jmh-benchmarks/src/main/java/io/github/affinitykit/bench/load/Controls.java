package io.github.affinitykit.bench.load;

import io.github.affinitykit.bench.load.Verdict.Metric;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The two controls every default run carries, judged before any scenario claim: the A/A arm (a
 * second unpinned arm) must read the same as unpinned on every metric it can compare (each interval
 * at {@link #AA_CONFIDENCE}, so the three together err 5% of the time on a machine that is fine),
 * and the handicapped arm (the unpinned server burning a known share of a CPU) must read more CPU
 * per message (95%). Either failing means this machine was too noisy, or the run too short, to
 * judge: the verdict then makes no scenario claim.
 *
 * <p>Thread safety: immutable.
 *
 * @param state the outcome
 * @param aa the A/A arm against unpinned, per metric (empty when the controls did not run)
 * @param handicap the handicapped arm against unpinned on CPU per message (null when they did not
 *     run)
 * @param cost the handicap (a known extra cost, in CPUs at the run's rate)
 * @param expectedRatio the CPU per message the handicap should add: 1 + handicap / the unpinned
 *     trials' CPU (NaN when unknown)
 */
record Controls(
    State state, List<Verdict> aa, Verdict handicap, Handicap cost, double expectedRatio) {

  /** The coverage of each of the A/A's three intervals: 1 - 0.05 / 3. */
  static final double AA_CONFIDENCE = 1 - 0.05 / 3;

  /** How the controls came out. */
  enum State {
    /** A/A the same, handicap detected: scenario claims stand. */
    PASSED,
    /** The A/A arm read a difference where there is none. */
    AA_FAILED,
    /** The handicap went undetected. */
    HANDICAP_MISSED,
    /** Both. */
    BOTH_FAILED,
    /** Too few usable trials to judge them. */
    UNJUDGED,
    /** The run had no controls ({@code --no-controls}, or no unpinned arm). */
    OFF
  }

  /** Validates. */
  Controls {
    Objects.requireNonNull(state, "state");
    aa = List.copyOf(aa);
  }

  /** No controls ran. */
  static Controls off() {
    return new Controls(State.OFF, List.of(), null, Handicap.NONE, Double.NaN);
  }

  /** Judges the controls' usable trials against unpinned's. */
  static Controls judge(
      ScenarioSummary base, ScenarioSummary aaArm, ScenarioSummary handicapped, Handicap cost) {
    List<Verdict> aa = new ArrayList<>();
    for (Metric m : Metric.values()) {
      aa.add(
          Verdict.of(
              aaArm.scenario().label(), m, aaArm.values(m::of), base.values(m::of), AA_CONFIDENCE));
    }
    Verdict h =
        Verdict.of(
            handicapped.scenario().label(),
            Metric.CPU_PER_MESSAGE,
            handicapped.values(Trial::cpuUsPerMessage),
            base.values(Trial::cpuUsPerMessage));
    double baseCpu = base.stats(Trial::serverCpuPercent)[0];
    double expected = 1 + cost.cpus() * 100 / baseCpu;
    boolean unjudged =
        aa.get(0).outcome() == Verdict.Outcome.UNJUDGED || h.outcome() == Verdict.Outcome.UNJUDGED;
    boolean aaFailed = aa.stream().anyMatch(Verdict::differs);
    boolean missed = h.outcome() != Verdict.Outcome.HIGHER;
    State s =
        unjudged
            ? State.UNJUDGED
            : aaFailed && missed
                ? State.BOTH_FAILED
                : aaFailed ? State.AA_FAILED : missed ? State.HANDICAP_MISSED : State.PASSED;
    return new Controls(s, aa, h, cost, expected);
  }

  /** Whether scenario claims may be made. */
  boolean allowClaims() {
    return state == State.PASSED || state == State.OFF;
  }

  /** The line that withholds every claim, when the controls failed; empty otherwise. */
  String withheld() {
    return switch (state) {
      case PASSED, OFF -> "";
      case UNJUDGED ->
          String.format(
              Locale.ROOT,
              "This machine was too noisy to judge: too few trials were usable to judge the"
                  + " controls (A/A %d, handicapped %d, unpinned %d; each needs %d); no scenario"
                  + " claim is made.",
              aa.get(0).n(),
              handicap.n(),
              handicap.baselineN(),
              Verdict.MIN_TRIALS);
      default ->
          "This machine was too noisy to judge: " + failures() + "; no scenario claim is made.";
    };
  }

  private String failures() {
    List<String> out = new ArrayList<>();
    if (state == State.AA_FAILED || state == State.BOTH_FAILED) {
      out.add(
          "the A/A arm (a second unpinned arm) read a difference where there is none ("
              + aa.stream()
                  .filter(Verdict::differs)
                  .map(v -> v.metric().title() + " " + v.ratioText())
                  .collect(Collectors.joining(", "))
              + ")");
    }
    if (state == State.HANDICAP_MISSED || state == State.BOTH_FAILED) {
      out.add(
          String.format(
              Locale.ROOT,
              "the handicapped arm's extra CPU per message (expected \u00d7%.2f) went undetected"
                  + " (%s)",
              expectedRatio,
              handicap.ratioText()));
    }
    return String.join(", and ", out);
  }

  /** The controls in one sentence. */
  String sentence() {
    if (state == State.OFF) {
      return "No controls ran (--no-controls, --quick, or no unpinned arm): any claim above is"
          + " unchecked against this machine's noise.";
    }
    if (state == State.UNJUDGED) {
      return String.format(
          Locale.ROOT,
          "Controls: not judged: the A/A arm has %s, the handicapped arm %d and unpinned %d"
              + " (each needs %d).",
          Sentences.trials(aa.get(0).n()),
          handicap.n(),
          handicap.baselineN(),
          Verdict.MIN_TRIALS);
    }
    String aaText =
        aa.stream()
            .map(
                v ->
                    v.outcome() == Verdict.Outcome.UNJUDGED
                        ? v.clause()
                        : v.metric().title() + " " + v.ratioText())
            .collect(Collectors.joining(", "));
    boolean aaSame = aa.stream().noneMatch(Verdict::differs);
    return String.format(
        Locale.ROOT,
        "Controls: the A/A arm (a second unpinned arm) read %s (%s); the handicapped arm (the"
            + " unpinned server with %s, expected \u00d7%.2f CPU per message) read %s: %s.",
        aaSame ? "no difference" : "a difference",
        aaText,
        cost.describe(),
        expectedRatio,
        handicap.outcome() == Verdict.Outcome.UNJUDGED ? handicap.clause() : handicap.ratioText(),
        handicap.outcome() == Verdict.Outcome.HIGHER ? "detected" : "not detected");
  }
}
