package io.github.affinitykit.netty;

import java.util.Objects;

/**
 * How one loop waits when idle, and why: what was asked, what is in force, and the facts.
 *
 * <p>Thread safety: immutable.
 *
 * @param group the group's name
 * @param index the loop's index in its group
 * @param cpu the loop's planned CPU, -1 if none
 * @param requested the policy asked for
 * @param mode the policy in force: never {@link WaitPolicy#AUTO}
 * @param honoured false when the transport cannot wait as asked (or as placement chose), so the
 *     loop blocks instead
 * @param reason why {@code mode}: the placement rule's facts, or what the transport cannot do
 */
public record LoopWait(
    String group,
    int index,
    int cpu,
    WaitPolicy requested,
    WaitPolicy mode,
    boolean honoured,
    String reason) {
  /**
   * Validates.
   *
   * @param group the group's name; not null
   * @param index the loop's index in its group, 0-based
   * @param cpu the loop's planned CPU, -1 if none
   * @param requested the policy asked for; not null
   * @param mode the policy in force; not null, never {@link WaitPolicy#AUTO}
   * @param honoured false when the transport cannot wait as asked, so the loop blocks instead
   * @param reason why {@code mode}: the placement rule's facts, or what the transport cannot do
   */
  public LoopWait {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(requested, "requested");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(reason, "reason");
    if (mode == WaitPolicy.AUTO) {
      throw new IllegalArgumentException("mode: AUTO (expected: the policy in force)");
    }
  }

  /** Returns {@code worker-0 cpu 1 idle SPIN_THEN_BLOCK (auto: audited EXCLUSIVE, ...)}. */
  @Override
  public String toString() {
    return group
        + "-"
        + index
        + " cpu "
        + cpu
        + " idle "
        + mode
        + " ("
        + (honoured() ? "" : "NOT HONOURED, ")
        + requested.cliName()
        + " requested: "
        + reason
        + ")";
  }
}
