package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** The trials' order: rotated rounds, and a trial that was not usable measured again next round. */
class TrialScheduleTest {
  private static final List<Scenario> ARMS =
      List.of(Scenario.UNPINNED, Scenario.UNPINNED_AA, Scenario.PINNED);

  /** Runs the schedule to its end; {@code usable} decides each trial (by arm and attempt). */
  private static List<String> drain(TrialSchedule s, Predicate<String> usable) {
    List<String> order = new ArrayList<>();
    for (Optional<Scenario> a = s.next(); a.isPresent(); a = s.next()) {
      String trial = a.get().label() + "#" + s.attempt(a.get());
      order.add(trial);
      s.done(a.get(), usable.test(trial));
    }
    return order;
  }

  @Test
  void shouldRotateTheArmsEachRound() {
    TrialSchedule s = new TrialSchedule(ARMS, 2, true);

    assertThat(drain(s, t -> true))
        .containsExactly(
            "unpinned#0", "unpinned-aa#0", "pinned#0", "unpinned-aa#1", "pinned#1", "unpinned#1");
    assertThat(s.missing()).isZero();
    assertThat(s.run()).isEqualTo(s.planned()).isEqualTo(6);
  }

  @Test
  void shouldCountTheRoundsBegunSoThatEachRoundCanRunAtARateOfItsOwn() {
    TrialSchedule s = new TrialSchedule(ARMS, 2, true);
    assertThat(s.rounds()).isZero();
    List<Integer> roundOfEach = new ArrayList<>();
    for (var next = s.next(); next.isPresent(); next = s.next()) {
      roundOfEach.add(s.rounds());
      s.done(next.get(), true);
    }

    assertThat(roundOfEach).containsExactly(1, 1, 1, 2, 2, 2);
    assertThat(s.rounds()).isEqualTo(2); // the empty round that ended it is not counted
  }

  @Test
  void shouldAddAWholeRotatedRoundOfEveryArmWhenExtended() {
    TrialSchedule s = new TrialSchedule(ARMS, 1, true);
    drain(s, t -> true);

    assertThat(s.extend()).isEqualTo(2);
    assertThat(s.target()).isEqualTo(2);
    assertThat(s.missing()).isEqualTo(3);
    assertThat(drain(s, t -> true)).containsExactly("unpinned-aa#1", "pinned#1", "unpinned#1");
    assertThat(s.arms()).isEqualTo(3);
  }

  @Test
  void shouldSayWhichTrialsMeasureAgainWhatWasNotUsable() {
    TrialSchedule s = new TrialSchedule(ARMS, 2, true);
    s.done(Scenario.UNPINNED, false);
    s.done(Scenario.PINNED, true);

    assertThat(s.remeasuring(Scenario.UNPINNED)).isTrue();
    assertThat(s.remeasuring(Scenario.PINNED)).isFalse();
    assertThat(s.remeasuring(Scenario.UNPINNED_AA)).isFalse();
    assertThat(new TrialSchedule(ARMS, 2, false).remeasuring(Scenario.UNPINNED)).isFalse();
  }

  @Test
  void shouldMeasureAgainInTheNextRoundWhatWasNotUsable() {
    TrialSchedule s = new TrialSchedule(ARMS, 2, true);

    List<String> order = drain(s, t -> !t.equals("pinned#0") && !t.equals("pinned#1"));

    assertThat(order)
        .containsExactly(
            "unpinned#0",
            "unpinned-aa#0",
            "pinned#0",
            "unpinned-aa#1",
            "pinned#1",
            "unpinned#1",
            "pinned#2",
            "pinned#3");
    assertThat(s.missing()).isZero();
  }

  @Test
  void shouldRunEachArmItsTrialsOnceWithoutReMeasurement() {
    TrialSchedule s = new TrialSchedule(ARMS, 1, false);

    assertThat(drain(s, t -> false)).containsExactly("unpinned#0", "unpinned-aa#0", "pinned#0");
    assertThat(s.missing()).isZero();
  }

  @Test
  void shouldCountTheTrialsStillMissing() {
    TrialSchedule s = new TrialSchedule(ARMS, 3, true);
    s.done(s.next().orElseThrow(), false);
    s.done(s.next().orElseThrow(), true);

    assertThat(s.missing()).isEqualTo(8);
    assertThat(s.attempt(Scenario.UNPINNED)).isEqualTo(1);
  }

  @Test
  void shouldRefuseAnEmptySchedule() {
    assertThatThrownBy(() -> new TrialSchedule(List.of(), 3, true))
        .hasMessageStartingWith("schedule: [] x 3");
  }
}
