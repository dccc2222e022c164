package io.github.affinitykit.netty;

import io.netty.channel.SelectStrategy;
import io.netty.channel.SelectStrategyFactory;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;

/**
 * A Netty {@link SelectStrategyFactory} that makes every loop wait as an {@link WaitPolicy} says.
 * Hand it to the handler factory of a transport that has the hook:
 *
 * <pre>{@code
 * WaitSelectStrategyFactory idle = WaitSelectStrategyFactory.of(WaitPolicy.SPIN_THEN_BLOCK, SpinLimit.DEFAULT);
 * PinnedIoEventLoopGroup.create(2, Transport.EPOLL.handlerFactory(idle), kit.group("worker").build());
 * // or NioIoHandler.newFactory(SelectorProvider.provider(), idle)
 * }</pre>
 *
 * <p>Netty asks for one strategy per loop, in loop order, while the group is constructed; the
 * {@code i}-th strategy belongs to loop {@code i}, so a per-loop decision ({@link WaitPolicy#AUTO},
 * made by {@link PinnedServerGroups} once the CPUs are known) can be set later.
 *
 * <p>Thread safety: thread-safe; strategies are created on the group's constructing thread and
 * their modes may be changed from any thread.
 */
public final class WaitSelectStrategyFactory implements SelectStrategyFactory {
  private final WaitPolicy initial;
  private final SpinLimit limit;
  private final LongSupplier clock;
  private final List<WaitSelectStrategy> created = new CopyOnWriteArrayList<>();

  private WaitSelectStrategyFactory(WaitPolicy initial, SpinLimit limit, LongSupplier clock) {
    this.initial = initial == WaitPolicy.AUTO ? WaitPolicy.BLOCK : initial;
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
    return new WaitSelectStrategyFactory(
        Objects.requireNonNull(policy, "policy"), limit, System::nanoTime);
  }

  /** As {@link #of}, timing spins with {@code clock} (nanoseconds): for tests. */
  static WaitSelectStrategyFactory of(WaitPolicy policy, SpinLimit limit, LongSupplier clock) {
    return new WaitSelectStrategyFactory(Objects.requireNonNull(policy, "policy"), limit, clock);
  }

  @Override
  public SelectStrategy newSelectStrategy() {
    WaitSelectStrategy s = new WaitSelectStrategy(initial, limit, clock);
    created.add(s);
    return s;
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
    return created.size();
  }

  /**
   * Returns the mode loop {@code loop} waits in now.
   *
   * @param loop the loop's index, 0-based, below {@link #size()}
   * @return {@code BLOCK}, {@code SPIN_THEN_BLOCK} or {@code BUSY_POLL}, never {@code AUTO}
   * @throws IndexOutOfBoundsException if no such loop
   */
  public WaitPolicy mode(int loop) {
    return created.get(loop).mode();
  }

  /** Sets loop {@code loop}'s mode (not AUTO); it takes effect on the loop's next turn. */
  void mode(int loop, WaitPolicy mode) {
    created.get(loop).mode(mode);
  }
}
