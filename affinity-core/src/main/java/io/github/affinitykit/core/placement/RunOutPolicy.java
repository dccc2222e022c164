package io.github.affinitykit.core.placement;

import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.PinnedThreadFactory;

/**
 * What a {@link CpuGroup} does when no free CPU of its pool fits the next member (or an explicit
 * CPU is held by someone else). One meaning for every adapter built on a group: {@link
 * PinnedThreadFactory}, the Netty loop groups, the Disruptor's threads.
 *
 * <p>Thread safety: immutable.
 */
public enum RunOutPolicy {
  /**
   * The member runs unpinned ({@link LeaseStatus#UNPINNED}, with the reason), confined to the
   * group's unpinned mask (by default the CPUs the process may use, never its creator's CPU); a
   * thread factory warns once. The default, as OpenHFT's, but said out loud.
   */
  UNPINNED,
  /**
   * The member shares the CPU of this group that has the fewest members (the lowest CPU on a tie),
   * as {@link LeaseStatus#SHARED}; when the group holds no CPU at all, it runs unpinned as {@link
   * #UNPINNED}.
   */
  SHARE,
  /**
   * Joining throws {@link IllegalStateException} naming the member, the pool and why (so {@link
   * PinnedThreadFactory#newThread(Runnable)} throws, and a Netty or Disruptor group fails to
   * build).
   */
  FAIL
}
