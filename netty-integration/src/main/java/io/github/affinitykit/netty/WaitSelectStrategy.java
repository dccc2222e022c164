package io.github.affinitykit.netty;

import io.netty.channel.SelectStrategy;
import io.netty.util.IntSupplier;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * One loop's {@link SelectStrategy}: decides, each time round the loop, whether to poll without
 * blocking or to block in {@code select}/{@code epoll_wait}, as its {@link WaitPolicy} says. The
 * {@code selectNow} supplier Netty passes is a non-blocking poll (NIO {@code selectNow()}, epoll
 * {@code epoll_wait(0)}); returning its count makes the loop handle what it found, then run its
 * tasks and timers and come back here, so spinning never starves tasks or scheduled work.
 *
 * <p>{@link WaitPolicy#BLOCK} behaves exactly as Netty's default strategy (poll if tasks wait, else
 * block). {@link WaitPolicy#SPIN_THEN_BLOCK} polls after the last work until the {@link SpinLimit}
 * is spent (time from {@code clock}, or empty polls), then blocks; any work (events or tasks)
 * starts a fresh spin next time. {@link WaitPolicy#BUSY_POLL} never blocks.
 *
 * <p>Thread safety: {@link #calculateStrategy} is called by the loop's thread only; {@link
 * #mode(WaitPolicy)} may be called from any thread (the loop sees it on its next turn).
 */
final class WaitSelectStrategy implements SelectStrategy {
  private final SpinLimit limit;
  private final LongSupplier clock;
  private volatile WaitPolicy mode;
  private boolean spinning;
  private long spinStart;
  private long emptyPolls;

  WaitSelectStrategy(WaitPolicy mode, SpinLimit limit, LongSupplier clock) {
    this.limit = Objects.requireNonNull(limit, "limit");
    this.clock = Objects.requireNonNull(clock, "clock");
    mode(mode);
  }

  /** Sets the mode: BLOCK, SPIN_THEN_BLOCK or BUSY_POLL. */
  void mode(WaitPolicy mode) {
    if (Objects.requireNonNull(mode, "mode") == WaitPolicy.AUTO) {
      throw new IllegalArgumentException("mode: AUTO (expected: a concrete policy; decide first)");
    }
    this.mode = mode;
  }

  /** Returns the mode in force. */
  WaitPolicy mode() {
    return mode;
  }

  @Override
  public int calculateStrategy(IntSupplier selectNow, boolean hasTasks) throws Exception {
    WaitPolicy m = mode;
    if (hasTasks) {
      spinning = false;
      return selectNow.get();
    }
    if (m == WaitPolicy.BLOCK) {
      return SelectStrategy.SELECT;
    }
    int ready = selectNow.get();
    if (ready > 0 || m == WaitPolicy.BUSY_POLL) {
      spinning = false;
      return ready;
    }
    if (spent()) {
      spinning = false;
      return SelectStrategy.SELECT;
    }
    Thread.onSpinWait();
    return ready;
  }

  /** Counts one empty poll; returns whether the spin since the last work has used its limit. */
  private boolean spent() {
    if (limit.unit() == SpinLimit.Unit.POLLS) {
      emptyPolls = spinning ? emptyPolls + 1 : 1;
      spinning = true;
      return emptyPolls > limit.amount();
    }
    long now = clock.getAsLong();
    if (!spinning) {
      spinning = true;
      spinStart = now;
      return false;
    }
    return now - spinStart >= limit.amount();
  }
}
