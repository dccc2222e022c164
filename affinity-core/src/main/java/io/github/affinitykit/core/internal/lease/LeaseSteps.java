package io.github.affinitykit.core.internal.lease;

import io.github.affinitykit.core.cpu.CpuSet;
import java.util.Objects;

/**
 * The steps of a lease's checks that affinity-watchdog takes and a library user does not: whether
 * this call found the reservation lost, the number of the move the thread is on, the mask it was
 * moved to, and a re-pin. They stay package-private in core's root package; {@code CpuLease}'s
 * class initialiser hands them here (one assignment, no I/O), as the JDK's {@code SharedSecrets}
 * do, and the module exports this package to the watchdog alone. Typed by the lease class, so this
 * package names nothing of the root package.
 *
 * <p>Thread safety: set once, before any lease exists; read from any thread.
 *
 * @param <L> the lease class
 */
public interface LeaseSteps<L> {
  /**
   * Checks the reservation's files.
   *
   * @param lease the lease
   * @return true when this call found it lost (told once: counter, Flight Recorder)
   */
  boolean verifyLoss(L lease);

  /**
   * Returns the number of the move the thread is on.
   *
   * @param lease the lease
   * @return the binding's count of moves found; 0 when not moved now (re-pinned, closed, never)
   */
  int move(L lease);

  /**
   * Returns the mask the kernel allowed the thread on when a check or a re-pin last looked.
   *
   * @param lease the lease
   * @return that mask; empty when closed
   */
  CpuSet movedTo(L lease);

  /**
   * Binds a moved thread to its CPU again, when the kernel still allows it there.
   *
   * @param lease the lease
   * @return "" when this call re-pinned it, else why not (it stays MOVED)
   */
  String repin(L lease);

  /**
   * Returns the steps {@code CpuLease} set.
   *
   * @param <L> the lease class
   * @return the steps
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
