package io.github.affinitykit.core.internal.lease;

import io.github.affinitykit.core.cpu.CpuSet;
import java.util.Objects;

/**
 * The steps of a lease's checks that affinity-watchdog takes and a library user does not; {@code
 * CpuLease}'s class initialiser hands its package-private ones here, as the JDK's {@code
 * SharedSecrets} do, and the module exports this package to the watchdog alone.
 *
 * <p>Thread safety: set once, before any lease exists; read from any thread.
 *
 * @param <L> the lease class
 */
public interface LeaseSteps<L> {
  /** {@return true when this call found the lease's reservation lost (told once)} */
  boolean verifyLoss(L lease);

  /** {@return the binding's count of moves found; 0 when not moved now} */
  int move(L lease);

  /** {@return the mask a check or a re-pin last saw; empty when closed} */
  CpuSet movedTo(L lease);

  /** Binds a moved thread to its CPU again if the kernel allows it: "" if done, else why not. */
  String repin(L lease);

  /**
   * Binds a moved thread whose CPU is gone from its mask to a free CPU of the mask, reserved by its
   * group as a new member's would be, and frees the old one: "" if done, else why not.
   */
  String replan(L lease);

  /**
   * {@return the steps {@code CpuLease} set}
   *
   * @param <L> the lease class
   * @throws IllegalStateException if no lease class was initialised yet
   */
  @SuppressWarnings("unchecked") // set by CpuLease alone, for CpuLease
  static <L> LeaseSteps<L> of() {
    LeaseSteps<?> s = Holder.steps;
    if (s == null) {
      throw new IllegalStateException("lease steps: unset (expected: set by CpuLease)");
    }
    return (LeaseSteps<L>) s;
  }

  /**
   * Sets the steps; {@code CpuLease}'s class initialiser does, once.
   *
   * @param steps the lease's steps
   * @throws IllegalStateException if already set
   */
  static void set(LeaseSteps<?> steps) {
    synchronized (Holder.class) {
      if (Holder.steps != null) {
        throw new IllegalStateException("lease steps: already set (expected: set once)");
      }
      Holder.steps = Objects.requireNonNull(steps, "steps");
    }
  }

  /** Where the steps are kept. */
  final class Holder {
    private static volatile LeaseSteps<?> steps;

    private Holder() {}
  }
}
