package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The verdict's sentences on synthetic runs: what comes first, what is withheld, what is said. */
class JudgementTest {
  @TempDir Path out;

  private static final List<Scenario> ARMS =
      List.of(
          Scenario.UNPINNED,
          Scenario.UNPINNED_AA,
          Scenario.HANDICAPPED,
          Scenario.TASKSET,
          Scenario.PINNED,
          Scenario.EXCLUSIVE);

  /** A run whose unpinned trials ran at {@code unpinnedCpu}%, the A/A arm reading {@code aa}. */
  private Judgement judge(double unpinnedCpu, double[] aa, List<Trial> more) {
    return judge(unpinnedCpu, unpinnedCpu, aa, more);
  }

  /** As above, the A/A arm's trials at {@code aaCpu}% of the server CPU. */
  private Judgement judge(double unpinnedCpu, double aaCpu, double[] aa, List<Trial> more) {
    List<Trial> trials = new ArrayList<>();
    for (int r = 0; r < 3; r++) {
      trials.add(
          Trials.of(Scenario.UNPINNED, r, 8.0 + 0.1 * r, 3_000 + 100 * r, 40_000, unpinnedCpu));
      trials.add(Trials.of(Scenario.UNPINNED_AA, r, aa[r], 3_000 + 100 * r, 40_000, aaCpu));
      trials.add(Trials.of(Scenario.HANDICAPPED, r, 9.7 + 0.1 * r, 3_400 + 100 * r, 35_000, 96));
      trials.add(Trials.of(Scenario.PINNED, r, 6.5 + 0.1 * r, 3_050 + 100 * r, 52_000 + r, 65));
    }
    trials.addAll(more);
    LoadOutcome outcome =
        new LoadOutcome(
            LoadReportTest.host(LoadReportTest.options(out)),
            Optional.of(
                new Calibration.Result(
                    80,
                    3,
                    new Calibration.Point(37_500, 79.1, true, 6_000_000_000L),
                    List.of(new Calibration.Point(37_500, 79.1, true, 6_000_000_000L)),
                    "within 3 points")),
            37_500,
            ARMS,
            trials,
            List.of(),
            Handicap.threads(0.16),
            false,
            Duration.ofMinutes(7));
    return Judgement.of(LoadReportTest.options(out), outcome, LoadReport.summaries(outcome));
  }

  @Test
  void shouldSayOneSentencePerScenarioAndCollapseWhatItCannotSay() {
    List<Trial> taskset =
        List.of(
            Trials.of(Scenario.TASKSET, 0, 7.9, 3_000, 40_000, 79),
            Trials.disturbed(Trials.of(Scenario.TASKSET, 1, 7.9, 3_000, 40_000, 79)));
    Judgement j = judge(80, new double[] {8.1, 7.9, 8.2}, taskset);

    assertThat(j.lines().get(0))
        .isEqualTo(
            "Against unpinned, pinned used 19% less CPU per message [16–21%], had the same p99 within"
                + " noise (×1.02 [0.95–1.09]) and sustained 30% more load [30–30%] (3 usable trials"
                + " a side).");
    assertThat(j.lines().get(1))
        .startsWith("Cannot say for taskset (1 usable trial), exclusive (0 usable trials):")
        .endsWith("run more --repeats, or on a quieter machine.");
    assertThat(j.lines().get(2)).startsWith("Controls: the A/A arm").endsWith("detected.");
    assertThat(j.lines().get(3))
        .startsWith("Operating point: at 37,500 msg/s, the unpinned trials ran at 80.0% of the")
        .contains("against the 80% target (calibrated: 37,500 msg/s");
    assertThat(j.lines().get(4))
        .startsWith("1 of 14 trials were not usable (not warm: 0, disturbed by other processes: 1)")
        .contains("budget");
    assertThat(j.lines().get(5)).startsWith(Verdict.METHOD);
    assertThat(j.point().missed()).isFalse();
  }

  @Test
  void shouldOpenWithTheMissedOperatingPointAndByHowMuch() {
    Judgement j = judge(24.7, new double[] {8.1, 7.9, 8.2}, List.of());

    assertThat(j.lines().get(0))
        .isEqualTo(
            "The operating point was missed: the unpinned trials ran at 24.7% of the server CPU,"
                + " 55.3 points below the 80% target; every figure below holds at 37,500 msg/s,"
                + " not at the target.");
    assertThat(j.lines().get(1)).startsWith("Against unpinned, pinned ");
  }

  @Test
  void shouldPlaceTheOperatingPointByBothUnpinnedArms() {
    // the unpinned arm alone ran 6 points above the target, its A/A twin 4 below: one gateway's
    // scatter, not a missed point; the median of all six unpinned trials is 81.0%
    Judgement j = judge(86, 76, new double[] {8.1, 7.9, 8.2}, List.of());

    assertThat(j.point().medianPercent()).isEqualTo(81.0);
    assertThat(j.point().trials()).isEqualTo(6);
    assertThat(j.point().missed()).isFalse();
    assertThat(j.lines())
        .anySatisfy(
            l ->
                assertThat(l)
                    .startsWith(
                        "Operating point: at 37,500 msg/s, the unpinned trials ran at 81.0% of the"
                            + " server CPU (median of 6, the A/A arm's included)"));
    assertThat(judge(86, new double[] {8.1, 7.9, 8.2}, List.of()).point().missed()).isTrue();
  }

  @Test
  void shouldNameTheRatesTheRoundsRanAtWhenTheRateWasReCentred() {
    // a later round ran at 35,000 msg/s, re-centred by the unpinned trials before it
    Judgement j =
        judge(24.7, new double[] {8.1, 7.9, 8.2}, List.of(Trials.at(Scenario.TASKSET, 35_000, 70)));

    assertThat(j.point().lowRate()).isEqualTo(35_000);
    assertThat(j.point().highRate()).isEqualTo(37_500);
    assertThat(j.lines().get(0))
        .endsWith("every figure below holds at 35,000\u201337,500 msg/s, not at the target.");
    assertThat(j.point().sentence())
        .startsWith(
            "Operating point: at 35,000\u201337,500 msg/s (the calibrated 37,500, each round's rate"
                + " re-centred on the unpinned trials before it), the unpinned trials ran at 24.7%");
  }

  @Test
  void shouldMakeNoScenarioClaimWhenAControlFails() {
    Judgement j = judge(80, new double[] {9.1, 9.3, 9.2}, List.of());

    assertThat(j.lines().get(0)).startsWith("This machine was too noisy to judge: the A/A arm");
    assertThat(j.lines()).noneMatch(l -> l.startsWith("Against unpinned"));
    assertThat(j.lines()).noneMatch(l -> l.startsWith("Cannot say"));
    assertThat(j.lines().get(1)).startsWith("Controls: the A/A arm (a second unpinned arm) read a");
    assertThat(j.verdicts()).isNotEmpty(); // the numbers stay in the JSON
  }
}
