package io.github.affinitykit.disruptor.demo;

import io.github.affinitykit.disruptor.Pinning;
import io.github.affinitykit.disruptor.WaitKind;
import java.util.Objects;
import java.util.Optional;

/**
 * One row of the demo: 1 producer → {@code consumers} pipeline stages, what is pinned, and the wait
 * strategy ({@code empty} = chosen from placement).
 *
 * <p>Thread safety: immutable.
 *
 * @param consumers pipeline stages (1 = 1P→1C)
 * @param pinning what is pinned
 * @param strategy the strategy named, or empty for the placement's choice
 */
record Scenario(int consumers, Pinning pinning, Optional<WaitKind> strategy) {
  Scenario {
    Objects.requireNonNull(pinning, "pinning");
    Objects.requireNonNull(strategy, "strategy");
  }

  String shape() {
    return "1P→" + consumers + "C";
  }
}
