package io.github.affinitykit.agrona;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.Assignment;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.WaitAdvice;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * An Agrona {@link IdleStrategy} that translates core's wait rule ({@link WaitAdvice#decide}) for
 * its thread: Agrona's {@link BusySpinIdleStrategy} where the rule says spin, its {@link
 * BackoffIdleStrategy} (default parameters) everywhere else, with the rule's answer ({@link
 * #choice()}).
 *
 * <pre>{@code
 * ctx.senderThreadFactory(PinnedThreadFactory.builder(kit.group("sender")).build())
 *    .senderIdleStrategy(PlacedIdleStrategy.of(kit));
 * }</pre>
 *
 * <p>Frameworks take their idle strategies before any agent thread exists (Aeron's {@code
 * MediaDriver.Context}, Agrona's {@code AgentRunner}), while a pinned thread factory's thread binds
 * its CPU only when it starts. So the strategy decides on its own thread, once, at its first call
 * ({@link #idle(int)}, {@link #idle()} or {@link #reset()}): it asks the rule with the calling
 * thread's lease in {@code kit.currentLease()} (none: not pinned) and the kit's other open leases
 * as its neighbours. No audit is used: an audit needs the threads running, and the choice is made
 * before; so only a thread whose whole core is isolated spins. Where it spins, it backs off while
 * its lease is not intact ({@link CpuLease#isIntact()}: a {@code Watchdog}'s or the application's
 * check found it MOVED or its reservation LOST, or it was closed), asking the rule why, and spins
 * again once it is (re-pinned). Otherwise a choice stands: threads pinned later do not change it;
 * build a new strategy for a new agent.
 *
 * <p>Thread safety: an idle strategy belongs to one agent thread: {@link #idle(int)}, {@link
 * #idle()} and {@link #reset()} may be called only from that thread (the first call decides for
 * it), so give each agent its own instance. {@link #choice()}, {@link #alias()} and {@link
 * #toString()} may be read from any thread.
 */
public final class PlacedIdleStrategy implements IdleStrategy {
  /** The alias before the choice; after it, this with the chosen strategy's alias appended. */
  public static final String ALIAS = "placed";

  private final AffinityKit kit;
  private IdleStrategy delegate; // the owner thread's; null until its first call
  private CpuLease watched; // the owner thread's lease when the rule said spin; else null
  private WaitAdvice spinAdvice; // the rule's answer, while watched
  private boolean broken; // watched, and backing off until its lease is intact again
  private volatile Optional<WaitAdvice> choice = Optional.empty();

  private PlacedIdleStrategy(AffinityKit kit) {
    this.kit = Objects.requireNonNull(kit, "kit");
  }

  /**
   * Returns a strategy that chooses at its first call from the calling thread's lease of {@code
   * kit}.
   *
   * @param kit the kit whose pinned thread factory (or group) binds the agent's thread; not null
   * @return a new strategy, undecided; one per agent thread
   */
  public static PlacedIdleStrategy of(AffinityKit kit) {
    return new PlacedIdleStrategy(kit);
  }

  /**
   * Returns the rule's answer in force: spin or back off, on which thread and CPU, and why.
   *
   * @return the answer once the owner thread asked; empty before its first call
   */
  public Optional<WaitAdvice> choice() {
    return choice;
  }

  @Override
  public void idle(int workCount) {
    if (watched != null && workCount <= 0) {
      follow();
    }
    delegate().idle(workCount);
  }

  @Override
  public void idle() {
    if (watched != null) {
      follow();
    }
    delegate().idle();
  }

  /**
   * Where the rule said spin: backs off once the lease is no longer intact ({@link
   * CpuLease#isIntact()}: a check found it MOVED or its reservation LOST, or it was closed), spins
   * again once it is (re-pinned by a watchdog). Volatile reads, no lock, until it changes.
   */
  private void follow() {
    boolean intact = watched.isIntact();
    if (intact != broken) {
      return;
    }
    broken = !intact;
    if (intact) {
      delegate = new BusySpinIdleStrategy();
      choice = Optional.of(spinAdvice);
      return;
    }
    delegate = new BackoffIdleStrategy();
    choice = Optional.of(WaitAdvice.decide(kit.host(), watched, List.of()));
  }

  @Override
  public void reset() {
    delegate().reset();
  }

  /**
   * Returns {@code placed} before the choice, then {@code placed-} and the chosen strategy's Agrona
   * alias: {@code placed-spin} or {@code placed-backoff}.
   *
   * @return the name of what this strategy does now
   */
  @Override
  public String alias() {
    return choice
        .map(c -> ALIAS + "-" + (c.spin() ? BusySpinIdleStrategy.ALIAS : BackoffIdleStrategy.ALIAS))
        .orElse(ALIAS);
  }

  private IdleStrategy delegate() {
    IdleStrategy d = delegate;
    return d != null ? d : decide();
  }

  private IdleStrategy decide() {
    Optional<CpuLease> lease = kit.currentLease();
    WaitAdvice c =
        lease
            .map(l -> WaitAdvice.decide(kit.host(), l, kit.leases()))
            .orElseGet(
                () ->
                    WaitAdvice.decide(
                        kit.host(),
                        new Assignment(
                            Thread.currentThread().getName(),
                            -1,
                            -1,
                            LeaseStatus.UNPINNED,
                            "no lease of this kit"),
                        List.of()));
    watched = c.spin() ? lease.orElseThrow() : null;
    spinAdvice = c;
    delegate = c.spin() ? new BusySpinIdleStrategy() : new BackoffIdleStrategy();
    choice = Optional.of(c);
    return delegate;
  }

  @Override
  public String toString() {
    return "PlacedIdleStrategy[" + choice.map(WaitAdvice::toString).orElse("undecided") + "]";
  }
}
