package io.github.affinitykit.core;

/**
 * What a {@link PinnedThreadFactory} does when no free CPU of its pool fits the next thread.
 *
 * <p>Thread safety: immutable.
 */
public enum RunOutPolicy {
  /**
   * The thread runs unpinned on the CPUs the process may use (not on its creator's CPU); the
   * factory warns once. The default, as OpenHFT's, but said out loud.
   */
  UNPINNED,
  /** The thread is pinned to the factory's least-loaded pinned CPU, sharing it. */
  SHARE,
  /** {@link PinnedThreadFactory#newThread(Runnable)} throws {@link IllegalStateException}. */
  FAIL
}
