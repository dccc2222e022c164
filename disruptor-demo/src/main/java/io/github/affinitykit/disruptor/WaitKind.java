package io.github.affinitykit.disruptor;

import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.BusySpinWaitStrategy;
import com.lmax.disruptor.SleepingWaitStrategy;
import com.lmax.disruptor.WaitStrategy;
import com.lmax.disruptor.YieldingWaitStrategy;

/**
 * The Disruptor 4 wait strategies a consumer can be given, from the most CPU-hungry to the most
 * frugal, with what each costs while the ring is idle and where it belongs.
 *
 * <p>Thread safety: immutable; {@link #create()} returns a new strategy on every call.
 */
public enum WaitKind {
  /**
   * {@link BusySpinWaitStrategy}: {@code Thread.onSpinWait()} in a loop. Lowest wake-up latency;
   * burns its CPU at 100% while idle and never gives it up, so anything else scheduled there (the
   * producer, another consumer, a kernel thread) waits for the end of a time slice. Only for a
   * consumer that owns an exclusive core.
   */
  BUSY_SPIN,
  /**
   * {@link YieldingWaitStrategy}: 100 spins, then {@code Thread.yield()} in a loop. Still 100% of a
   * CPU while idle, but a runnable neighbour on the same CPU gets it at the next yield. For a
   * consumer with a CPU of its own that is not proven exclusive.
   */
  YIELDING,
  /**
   * {@link SleepingWaitStrategy}: 100 spins, 100 yields, then {@code LockSupport.parkNanos(100)} (a
   * 50–60 µs wake-up on the 2-CPU test machine: timer slack). Near-zero CPU while idle, no
   * signalling cost for the producer, and it backs off the same way while waiting for an upstream
   * stage. For consumers that share CPUs.
   */
  SLEEPING,
  /**
   * {@link BlockingWaitStrategy}: waits on a monitor that every publish notifies. Zero CPU while
   * idle; the producer pays a monitor enter and {@code notifyAll} per publish, and a stage waiting
   * for an upstream stage (not for the producer) spins.
   */
  BLOCKING;

  /**
   * Returns a new wait strategy of this kind.
   *
   * @return a fresh instance on each call, never shared between Disruptors
   */
  public WaitStrategy create() {
    return switch (this) {
      case BUSY_SPIN -> new BusySpinWaitStrategy();
      case YIELDING -> new YieldingWaitStrategy();
      case SLEEPING -> new SleepingWaitStrategy();
      case BLOCKING -> new BlockingWaitStrategy();
    };
  }

  /**
   * Returns the kind named {@code name}, case-insensitive, {@code -} or {@code _} between words
   * ({@code busy-spin}, {@code BUSY_SPIN}).
   *
   * @param name the kind's name; surrounding blanks are ignored; not null
   * @return the kind named
   * @throws IllegalArgumentException naming the value and the accepted names
   */
  public static WaitKind parse(String name) {
    String n = name.trim().replace('-', '_').toUpperCase(java.util.Locale.ROOT);
    for (WaitKind k : values()) {
      if (k.name().equals(n)) {
        return k;
      }
    }
    throw new IllegalArgumentException(
        "wait strategy: "
            + name
            + " (expected: one of "
            + java.util.Arrays.toString(values()).toLowerCase(java.util.Locale.ROOT)
            + ")");
  }
}
