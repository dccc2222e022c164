package io.github.affinitykit.bench.load;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The order trials run in: rounds of one trial per arm, rotated by one arm each round so that drift
 * in the machine spreads over every arm; each round holds only the arms still short of their usable
 * trials, so a trial that was not warm or was disturbed is measured again in the next round,
 * interleaved with the others, until every arm has {@code repeats} usable trials (without {@code
 * remeasure}, each arm runs {@code repeats} trials, usable or not). Once they have, the caller may
 * {@link #extend} it by a whole round when its budget has room: spare time buys every arm one more
 * trial, never some arms more than others. The caller stops asking when its budget is spent.
 *
 * <p>Thread safety: one controlling thread.
 */
final class TrialSchedule {
  private final List<Scenario> arms;
  private int repeats;
  private final boolean remeasure;
  private final Map<Scenario, Integer> usable = new EnumMap<>(Scenario.class);
  private final Map<Scenario, Integer> attempts = new EnumMap<>(Scenario.class);
  private final Deque<Scenario> round = new ArrayDeque<>();
  private int rounds;

  TrialSchedule(List<Scenario> arms, int repeats, boolean remeasure) {
    if (arms.isEmpty() || repeats < 1) {
      throw new IllegalArgumentException(
          "schedule: " + arms + " x " + repeats + " (expected: an arm, repeats >= 1)");
    }
    this.arms = List.copyOf(arms);
    this.repeats = repeats;
    this.remeasure = remeasure;
    arms.forEach(a -> usable.put(a, 0));
    arms.forEach(a -> attempts.put(a, 0));
  }

  /** The next arm to run; empty once every arm has its usable trials. */
  Optional<Scenario> next() {
    if (round.isEmpty()) {
      for (int i = 0; i < arms.size(); i++) {
        Scenario a = arms.get((i + rounds) % arms.size());
        if ((remeasure ? usable : attempts).get(a) < repeats) {
          round.add(a);
        }
      }
      rounds += round.isEmpty() ? 0 : 1; // an empty round (all done) rotates nothing
    }
    return Optional.ofNullable(round.poll());
  }

  /** Rounds begun so far: the arm {@link #next} returned last is in this one (1-based). */
  int rounds() {
    return rounds;
  }

  /** One more usable trial for every arm (all arms had theirs); returns how many each now needs. */
  int extend() {
    return ++repeats;
  }

  /** Usable trials each arm needs (more than asked once {@link #extend extended}). */
  int target() {
    return repeats;
  }

  /** The arms. */
  int arms() {
    return arms.size();
  }

  /**
   * Whether every arm has at least {@code n} usable trials (any trials, without re-measurement).
   */
  boolean has(int n) {
    return arms.stream().allMatch(a -> (remeasure ? usable : attempts).get(a) >= n);
  }

  /** Whether {@code arm}'s next trial measures again one that was not usable. */
  boolean remeasuring(Scenario arm) {
    return remeasure && attempts.get(arm) > usable.get(arm);
  }

  /** Which attempt of {@code arm} runs next (0-based). */
  int attempt(Scenario arm) {
    return attempts.get(arm);
  }

  /** A trial of {@code arm} ended; {@code ok} if it is usable. */
  void done(Scenario arm, boolean ok) {
    attempts.merge(arm, 1, Integer::sum);
    if (ok) {
      usable.merge(arm, 1, Integer::sum);
    }
  }

  /** Trials each arm still lacks (usable ones, or any without re-measurement), summed. */
  int missing() {
    Map<Scenario, Integer> done = remeasure ? usable : attempts;
    return arms.stream().mapToInt(a -> Math.max(0, repeats - done.get(a))).sum();
  }

  /** Trials run so far. */
  int run() {
    return attempts.values().stream().mapToInt(Integer::intValue).sum();
  }

  /** Trials planned without re-measurement: arms x repeats. */
  int planned() {
    return arms.size() * repeats;
  }
}
