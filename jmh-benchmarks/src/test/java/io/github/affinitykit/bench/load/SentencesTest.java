package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How many trials each arm had, said as the run went: asked for, rounds added, a round cut. */
class SentencesTest {
  private static ScenarioSummary arm(Scenario s, int trials) {
    List<Trial> t = new ArrayList<>();
    for (int i = 0; i < trials; i++) {
      t.add(Trials.of(s, i, 8, 1_500, 100_000, 80));
    }
    return ScenarioSummary.of(s, t);
  }

  @Test
  void shouldSayTheTrialsAskedForTheRoundsAddedAndWhichArmsALastRoundMissed() {
    assertThat(Sentences.perArm(3, List.of(arm(Scenario.UNPINNED, 3), arm(Scenario.PINNED, 3))))
        .isEqualTo("3 usable trials per arm");
    assertThat(Sentences.perArm(3, List.of(arm(Scenario.UNPINNED, 5), arm(Scenario.PINNED, 5))))
        .isEqualTo(
            "5 usable trials per arm (--repeats 3, and 2 more rounds the budget had room for)");
    assertThat(
            Sentences.perArm(
                3,
                List.of(
                    arm(Scenario.UNPINNED, 4),
                    arm(Scenario.HANDICAPPED, 3),
                    arm(Scenario.PINNED, 4))))
        .isEqualTo(
            "3 to 4 usable trials per arm (--repeats 3, and rounds more the budget had room for;"
                + " it ended the last before handicapped)");
  }
}
