package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The controls on synthetic trials, all four outcomes: the A/A arm the same or not, the handicap
 * detected or not; claims only when both hold.
 */
class ControlsTest {
  private static final double[] UNPINNED_CPU_US = {8.0, 8.2, 7.9};
  private static final double[] SAME = {8.1, 7.9, 8.2};
  private static final double[] SHIFTED = {9.1, 9.3, 9.2}; // what an A/A must never read
  private static final double[] HANDICAPPED = {9.6, 9.8, 9.7}; // +20%
  private static final double[] HIDDEN = {8.9, 7.6, 9.9}; // +20% in the mean, lost in the noise

  static List<Trial> arm(Scenario s, double[] cpuUs) {
    List<Trial> out = new ArrayList<>();
    for (int r = 0; r < cpuUs.length; r++) {
      out.add(Trials.of(s, r, cpuUs[r], 3_000 + 100 * r, 40_000 + 500 * r, 80));
    }
    return out;
  }

  static Controls judge(double[] aa, double[] handicapped) {
    List<Trial> all = new ArrayList<>(arm(Scenario.UNPINNED, UNPINNED_CPU_US));
    all.addAll(arm(Scenario.UNPINNED_AA, aa));
    all.addAll(arm(Scenario.HANDICAPPED, handicapped));
    return Controls.judge(
        ScenarioSummary.of(Scenario.UNPINNED, all),
        ScenarioSummary.of(Scenario.UNPINNED_AA, all),
        ScenarioSummary.of(Scenario.HANDICAPPED, all),
        Handicap.threads(0.16));
  }

  @Test
  void shouldAllowClaimsWhenTheAaReadsTheSameAndTheHandicapIsDetected() {
    Controls c = judge(SAME, HANDICAPPED);

    assertThat(c.state()).isEqualTo(Controls.State.PASSED);
    assertThat(c.allowClaims()).isTrue();
    assertThat(c.withheld()).isEmpty();
    assertThat(c.expectedRatio()).isEqualTo(1.2);
    assertThat(c.sentence())
        .startsWith("Controls: the A/A arm (a second unpinned arm) read no difference (CPU per")
        .contains("a thread burning 16% of a CPU, expected ×1.20 CPU per message) read ×1.2")
        .endsWith(": detected.");
  }

  @Test
  void shouldWithholdClaimsWhenTheAaReadsADifference() {
    Controls c = judge(SHIFTED, HANDICAPPED);

    assertThat(c.state()).isEqualTo(Controls.State.AA_FAILED);
    assertThat(c.allowClaims()).isFalse();
    assertThat(c.withheld())
        .startsWith("This machine was too noisy to judge: the A/A arm (a second unpinned arm) read")
        .contains("CPU per message ×1.1")
        .endsWith("; no scenario claim is made.");
  }

  @Test
  void shouldWithholdClaimsWhenTheHandicapGoesUndetected() {
    Controls c = judge(SAME, HIDDEN);

    assertThat(c.state()).isEqualTo(Controls.State.HANDICAP_MISSED);
    assertThat(c.allowClaims()).isFalse();
    assertThat(c.withheld())
        .contains("the handicapped arm's extra CPU per message (expected ×1.20) went undetected")
        .doesNotContain("A/A");
    assertThat(c.sentence()).endsWith(": not detected.");
  }

  @Test
  void shouldWithholdClaimsWhenBothFail() {
    Controls c = judge(SHIFTED, HIDDEN);

    assertThat(c.state()).isEqualTo(Controls.State.BOTH_FAILED);
    assertThat(c.allowClaims()).isFalse();
    assertThat(c.withheld()).contains("A/A arm").contains(", and the handicapped arm");
  }

  @Test
  void shouldNotJudgeWithTooFewUsableTrials() {
    Controls c = judge(new double[] {8.1, 7.9}, HANDICAPPED);

    assertThat(c.state()).isEqualTo(Controls.State.UNJUDGED);
    assertThat(c.allowClaims()).isFalse();
    assertThat(c.withheld())
        .isEqualTo(
            "This machine was too noisy to judge: too few trials were usable to judge the"
                + " controls (A/A 2, handicapped 3, unpinned 3; each needs 3); no scenario claim"
                + " is made.");
    assertThat(c.sentence())
        .isEqualTo(
            "Controls: not judged: the A/A arm has 2 usable trials, the handicapped arm 3 and"
                + " unpinned 3 (each needs 3).");
  }

  @Test
  void shouldMakeClaimsUncheckedWithoutControls() {
    assertThat(Controls.off().allowClaims()).isTrue();
    assertThat(Controls.off().sentence()).startsWith("No controls ran");
  }
}
