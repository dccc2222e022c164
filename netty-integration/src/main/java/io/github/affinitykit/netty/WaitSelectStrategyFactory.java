package io.github.affinitykit.netty;

import io.github.affinitykit.core.Assignment;
import io.github.affinitykit.core.WaitAdvice;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.netty.channel.SelectStrategy;
import io.netty.channel.SelectStrategyFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * A Netty {@link SelectStrategyFactory} that makes every loop wait as a {@link WaitPolicy} says,
 * and the report of how each waits and why. Hand it to the handler factory of a transport that has
 * the hook:
 *
 * <pre>{@code
 * WaitSelectStrategyFactory idle = WaitSelectStrategyFactory.of(WaitPolicy.SPIN_THEN_BLOCK, SpinLimit.DEFAULT);
 * PinnedIoEventLoopGroup.create(2, Transport.EPOLL.handlerFactory(idle), kit.group("worker").build());
 * // or NioIoHandler.newFactory(SelectorProvider.provider(), idle)
 * }</pre>
 *
 * <p>Each loop's {@link SelectStrategy} decides, each time round the loop, whether to poll without
 * blocking or to block in {@code select}/{@code epoll_wait}. The {@code selectNow} supplier Netty
 * passes is a non-blocking poll (NIO {@code selectNow()}, epoll {@code epoll_wait(0)}); returning
 * its count makes the loop handle what it found, then run its tasks and timers and come back, so
 * spinning never starves tasks or scheduled work. {@link WaitPolicy#BLOCK} behaves exactly as
 * Netty's default strategy (poll if tasks wait, else block); {@link WaitPolicy#SPIN_THEN_BLOCK}
 * polls after the last work until the {@link SpinLimit} is spent (time, or empty polls), then
 * blocks, and any work starts a fresh spin; {@link WaitPolicy#BUSY_POLL} never blocks.
 *
 * <p>Netty asks for one strategy per loop, in loop order, while the group is constructed; the
 * {@code i}-th belongs to loop {@code i}, so a per-loop decision ({@link WaitPolicy#AUTO}: core's
 * wait rule, {@link WaitAdvice#decide}, translated; made by {@link PinnedServerGroups} once the
 * CPUs are known and again after an audit) can be set later.
 *
 * <p>Thread safety: thread-safe; strategies are created on the group's constructing thread, each is
 * called by its loop's thread only, and modes may be changed from any thread (a loop sees its new
 * mode on its next turn). Decisions are serialised; the report may be read from any thread.
 */
public final class WaitSelectStrategyFactory implements SelectStrategyFactory {
  private final WaitPolicy requested;
  private final SpinLimit limit;
  private final LongSupplier clock;
  private final List<AtomicReference<WaitPolicy>> modes = new CopyOnWriteArrayList<>();
  private volatile List<WaitAdvice> advice = List.of();
  private volatile Optional<String> unsupported = Optional.empty();

  private WaitSelectStrategyFactory(WaitPolicy requested, SpinLimit limit, LongSupplier clock) {
    this.requested = Objects.requireNonNull(requested, "policy");
    this.limit = Objects.requireNonNull(limit, "limit");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Strategies for {@code policy} with {@code limit}; {@link WaitPolicy#AUTO} starts every loop
   * blocking until a decision is set.
   *
   * @param policy the mode of every loop it makes; not null
   * @param limit the spin limit of {@link WaitPolicy#SPIN_THEN_BLOCK}; not null
   * @return a new factory that has made no strategy yet
   */
  public static WaitSelectStrategyFactory of(WaitPolicy policy, SpinLimit limit) {
    return new WaitSelectStrategyFactory(policy, limit, System::nanoTime);
  }

  /** As {@link #of}, timing spins with {@code clock} (nanoseconds): for tests. */
  static WaitSelectStrategyFactory of(WaitPolicy policy, SpinLimit limit, LongSupplier clock) {
    return new WaitSelectStrategyFactory(policy, limit, clock);
  }

  @Override
  public SelectStrategy newSelectStrategy() {
    AtomicReference<WaitPolicy> mode =
        new AtomicReference<>(requested == WaitPolicy.AUTO ? WaitPolicy.BLOCK : requested);
    long[] spin = new long[3]; // the loop thread's own: spinning (0/1), start (ns), empty polls
    modes.add(mode);
    return (selectNow, hasTasks) -> {
      WaitPolicy m = mode.get();
      if (hasTasks) {
        spin[0] = 0;
        return selectNow.get();
      }
      if (m == WaitPolicy.BLOCK) {
        return SelectStrategy.SELECT;
      }
      int ready = selectNow.get();
      if (ready > 0 || m == WaitPolicy.BUSY_POLL) {
        spin[0] = 0;
        return ready;
      }
      if (spent(spin)) {
        spin[0] = 0;
        return SelectStrategy.SELECT;
      }
      Thread.onSpinWait();
      return ready;
    };
  }

  /** Counts one empty poll; returns whether the spin since the last work has used its limit. */
  private boolean spent(long[] spin) {
    boolean spinning = spin[0] != 0;
    spin[0] = 1;
    if (limit.polls()) {
      spin[2] = spinning ? spin[2] + 1 : 1;
      return spin[2] > limit.amount();
    }
    long now = clock.getAsLong();
    if (!spinning) {
      spin[1] = now;
      return false;
    }
    return now - spin[1] >= limit.amount();
  }

  /**
   * Returns the policy asked for.
   *
   * @return the policy given to {@link #of}
   */
  public WaitPolicy requested() {
    return requested;
  }

  /**
   * Returns the spin limit of every loop.
   *
   * @return the limit given to {@link #of}
   */
  public SpinLimit limit() {
    return limit;
  }

  /**
   * Returns how many strategies (loops) were created.
   *
   * @return 0 until a group is built with this factory, then one per loop made so far
   */
  public int size() {
    return modes.size();
  }

  /**
   * Returns the mode loop {@code loop} waits in now.
   *
   * @param loop the loop's index, 0-based, below {@link #size()}
   * @return {@code BLOCK}, {@code SPIN_THEN_BLOCK} or {@code BUSY_POLL}, never {@code AUTO}
   * @throws IndexOutOfBoundsException if no such loop
   */
  public WaitPolicy mode(int loop) {
    return modes.get(loop).get();
  }

  /** Sets loop {@code loop}'s mode (not AUTO); it takes effect on the loop's next turn. */
  void mode(int loop, WaitPolicy mode) {
    if (Objects.requireNonNull(mode, "mode") == WaitPolicy.AUTO) {
      throw new IllegalArgumentException("mode: AUTO (expected: a concrete policy; decide first)");
    }
    modes.get(loop).set(mode);
  }

  /**
   * Returns core's wait rule's answer for each worker loop at the last decision.
   *
   * @return one answer per worker loop, in loop order; empty before the groups decided
   */
  public List<WaitAdvice> advice() {
    return advice;
  }

  /**
   * Asks the rule for every loop of {@code workers} ({@code everyone}: every loop of the server,
   * its neighbours) and sets each loop's mode: AUTO translates the answer, other policies keep
   * theirs, and a transport without the hook blocks.
   */
  synchronized void decide(
      HostCpus host,
      Transport transport,
      List<LoopAssignment> workers,
      List<LoopAssignment> everyone,
      CpuSet auditedExclusive,
      CpuSet audited) {
    List<Assignment> all = everyone.stream().map(WaitSelectStrategyFactory::named).toList();
    List<WaitAdvice> out = new ArrayList<>();
    for (LoopAssignment w : workers) {
      out.add(WaitAdvice.decide(host, named(w), all, auditedExclusive, audited));
    }
    unsupported = transport.idleUnsupported();
    advice = List.copyOf(out);
    for (int i = 0; i < workers.size(); i++) {
      if (workers.get(i).index() < size()) {
        mode(workers.get(i).index(), inForce(out.get(i)));
      }
    }
  }

  private static Assignment named(LoopAssignment l) {
    return new Assignment(l.group() + "-" + l.index(), l.tid(), l.cpu(), l.status(), l.reason());
  }

  private WaitPolicy wanted(WaitAdvice a) {
    if (requested != WaitPolicy.AUTO) {
      return requested;
    }
    return a.spin() ? WaitPolicy.SPIN_THEN_BLOCK : WaitPolicy.BLOCK;
  }

  private WaitPolicy inForce(WaitAdvice a) {
    return unsupported.isPresent() ? WaitPolicy.BLOCK : wanted(a);
  }

  /**
   * Returns whether every loop waits as asked (or as the rule chose, under AUTO).
   *
   * @return false if a loop blocks instead because its transport has no hook; true with no loops
   */
  public boolean honoured() {
    return advice.stream().allMatch(a -> wanted(a) == inForce(a));
  }

  /**
   * Returns the report: a headline ({@code wait policy spin-then-block, spin limit 50us}), then one
   * line per worker loop ({@code worker-0 cpu 1 idle SPIN_THEN_BLOCK (auto requested: audited
   * EXCLUSIVE, alone on core 1)}): the mode in force, what was asked, and why.
   *
   * @return a snapshot, headline first; {@code NOT HONOURED} where a loop blocks instead
   */
  public List<String> report() {
    List<WaitAdvice> now = advice;
    List<String> lines = new ArrayList<>();
    lines.add(
        "wait policy "
            + requested.cliName()
            + (requested == WaitPolicy.BLOCK || requested == WaitPolicy.BUSY_POLL
                ? ""
                : ", spin limit " + limit)
            + (honoured() ? "" : ", NOT HONOURED on every loop (see below)"));
    for (WaitAdvice a : now) {
      WaitPolicy wanted = wanted(a);
      WaitPolicy mode = inForce(a);
      String why =
          wanted != mode
              ? wanted + " wanted, but " + unsupported.orElseThrow()
              : requested == WaitPolicy.AUTO
                  ? a.text()
                  : requested == WaitPolicy.BLOCK
                      ? "Netty's default"
                      : "as asked; the placement rule alone would choose "
                          + (a.spin() ? WaitPolicy.SPIN_THEN_BLOCK : WaitPolicy.BLOCK)
                          + ": "
                          + a.text();
      lines.add(
          a.thread()
              + " cpu "
              + a.cpu()
              + " idle "
              + mode
              + " ("
              + (wanted == mode ? "" : "NOT HONOURED, ")
              + requested.cliName()
              + " requested: "
              + why
              + ")");
    }
    return List.copyOf(lines);
  }
}
