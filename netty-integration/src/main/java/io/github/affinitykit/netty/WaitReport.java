package io.github.affinitykit.netty;

import java.util.List;
import java.util.Objects;

/**
 * How the worker loops of a server wait when idle: the policy asked for, the spin limit, and each
 * loop's mode in force with its reason. The boss only accepts connections and always blocks.
 *
 * <p>Thread safety: immutable (a snapshot).
 *
 * @param requested the policy asked for
 * @param limit the spin limit of {@link WaitPolicy#SPIN_THEN_BLOCK}
 * @param loops one entry per worker loop, in loop order
 */
public record WaitReport(WaitPolicy requested, SpinLimit limit, List<LoopWait> loops) {
  /**
   * Copies.
   *
   * @param requested the policy asked for; not null
   * @param limit the spin limit of {@link WaitPolicy#SPIN_THEN_BLOCK}; not null
   * @param loops one entry per worker loop, in loop order; copied, no nulls
   */
  public WaitReport {
    Objects.requireNonNull(requested, "requested");
    Objects.requireNonNull(limit, "limit");
    loops = List.copyOf(loops);
  }

  /**
   * Returns the report of groups built without a wait policy: Netty's default, blocking.
   *
   * @return policy {@link WaitPolicy#BLOCK}, {@link SpinLimit#DEFAULT}, and no loops
   */
  public static WaitReport blocking() {
    return new WaitReport(WaitPolicy.BLOCK, SpinLimit.DEFAULT, List.of());
  }

  /**
   * Returns whether every loop waits as asked.
   *
   * @return false if any loop blocks instead; true when there are no loops
   */
  public boolean honoured() {
    return loops.stream().allMatch(LoopWait::honoured);
  }

  /**
   * Returns one line: {@code wait policy spin-then-block, spin limit 50us}.
   *
   * @return the policy, its spin limit unless BLOCK or BUSY_POLL, and a warning if not honoured
   */
  public String headline() {
    return "wait policy "
        + requested.cliName()
        + (requested == WaitPolicy.BLOCK || requested == WaitPolicy.BUSY_POLL
            ? ""
            : ", spin limit " + limit)
        + (honoured() ? "" : ", NOT HONOURED on every loop (see below)");
  }
}
