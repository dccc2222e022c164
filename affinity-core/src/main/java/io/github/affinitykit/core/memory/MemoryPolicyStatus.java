package io.github.affinitykit.core.memory;

import java.util.Objects;

/**
 * What became of the memory policy a pinned thread was to take: left alone, in force, refused (with
 * the errno), restored once its binding ended, or kept because the binding was ended from another
 * thread, or because the policy had changed since the bind.
 *
 * <p>Thread safety: immutable.
 *
 * @param asked the policy the group asked for
 * @param state what became of it
 * @param errno 0, the kernel's errno of a refusal, or {@code -1} where the platform has no call
 * @param reason one line for people: what was done, or why not
 */
public record MemoryPolicyStatus(MemoryPolicy asked, State state, int errno, String reason) {
  /** What became of a thread's memory policy. */
  public enum State {
    /** Nothing was set: {@link MemoryPolicy#DEFAULT} asked, or the thread was not pinned. */
    LEFT_ALONE,
    /** The thread's policy is the one asked for. */
    IN_FORCE,
    /** The kernel or the platform refused it; the pin stands. */
    FAILED,
    /** The binding ended and the thread's previous policy is back. */
    RESTORED,
    /**
     * The binding ended but the policy stays: it was ended from another thread ({@code
     * set_mempolicy} changes the caller's only), or the previous policy could not be set again.
     */
    NOT_RESTORED
  }

  /**
   * Checks the parts.
   *
   * @param asked the policy the group asked for
   * @param state what became of it
   * @param errno 0, the kernel's errno of a refusal, or {@code -1} where the platform has no call
   * @param reason one line for people: what was done, or why not
   * @throws NullPointerException if a part is null
   */
  public MemoryPolicyStatus {
    Objects.requireNonNull(asked, "asked");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(reason, "reason");
  }

  /** {@return whether the asked policy is the thread's now} */
  public boolean inForce() {
    return state == State.IN_FORCE;
  }

  /** {@return {@code memory bind 0: IN_FORCE}, with the reason where it says more} */
  @Override
  public String toString() {
    return "memory " + asked + ": " + state + (reason.isEmpty() ? "" : " (" + reason + ")");
  }
}
