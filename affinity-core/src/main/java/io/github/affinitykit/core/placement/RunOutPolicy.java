package io.github.affinitykit.core.placement;

import io.github.affinitykit.core.LeaseStatus;

/**
 * What a group of threads ({@code CpuGroup}) does when no free CPU of its pool fits the next member
 * (or an explicit CPU is held by someone else). One meaning for every adapter built on a group: the
 * pinned thread factory, the Netty loop groups, the Disruptor's threads.
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
   * Joining throws {@link IllegalStateException} naming the member, the pool and why (so the pinned
   * thread factory's {@code newThread} throws, and a Netty or Disruptor group fails to build).
   */
  FAIL
}
