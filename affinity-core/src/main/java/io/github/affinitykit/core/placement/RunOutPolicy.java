package io.github.affinitykit.core.placement;

import io.github.affinitykit.core.LeaseStatus;

/**
 * What a group of threads ({@code CpuGroup}) does when no free CPU of its pool fits the next member
 * (or an explicit CPU is held elsewhere): one meaning for every adapter built on a group.
 *
 * <p>Thread safety: immutable.
 */
public enum RunOutPolicy {
  /**
   * The member runs {@link LeaseStatus#UNPINNED} on the group's unpinned mask, with the reason. The
   * default, as OpenHFT's, but said out loud.
   */
  UNPINNED,
  /**
   * The member shares the group's CPU with the fewest members ({@link LeaseStatus#SHARED}); with no
   * CPU held, as {@link #UNPINNED}.
   */
  SHARE,
  /** Joining throws {@link IllegalStateException} naming the member, the pool and why. */
  FAIL
}
