package io.github.affinitykit.numa;

import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.Seat;
import io.github.affinitykit.core.ThreadMemoryPolicy;
import java.util.Objects;
import java.util.Optional;

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

  /**
   * Returns what became of the group's memory policy on {@code lease}'s thread.
   *
   * @param lease a lease of a group's seat
   * @return the status now; {@code LEFT_ALONE} where the group asked for no policy
   */
  public static MemoryPolicyStatus of(CpuLease lease) {
    return of(lease.memoryPolicy());
  }

  /**
   * Returns what became of the group's memory policy on the thread that bound {@code seat} last.
   *
   * @param seat a group's seat
   * @return the status now; {@code LEFT_ALONE} before any bind, or where the group asked for none
   */
  public static MemoryPolicyStatus of(Seat seat) {
    return of(seat.memoryPolicy());
  }

  /** The status of {@code binding}: its own where this artifact made it, else what it says. */
  static MemoryPolicyStatus of(Optional<ThreadMemoryPolicy.Binding> binding) {
    if (binding.isEmpty()) {
      return new MemoryPolicyStatus(MemoryPolicy.DEFAULT, State.LEFT_ALONE, 0, "none asked");
    }
    ThreadMemoryPolicy.Binding b = binding.get();
    return b instanceof ThreadMemory t // another implementation: all it says is its line
        ? t.status()
        : new MemoryPolicyStatus(
            MemoryPolicy.DEFAULT, b.inForce() ? State.IN_FORCE : State.FAILED, 0, b.toString());
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
