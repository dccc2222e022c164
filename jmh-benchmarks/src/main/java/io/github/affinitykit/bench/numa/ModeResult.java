package io.github.affinitykit.bench.numa;

import io.github.affinitykit.numa.PageNodes;
import java.util.Objects;

/**
 * One mode of the seed experiment: how long a pass over every share took, and where the pages were
 * while the threads worked on them.
 *
 * <p>Thread safety: immutable.
 *
 * @param mode where the memory was put
 * @param medianPassNanos the median wall time of one pass of every thread over its share, ns
 * @param pages where the pages of all shares were ({@code move_pages}), summed
 * @param ownNodePages how many pages sat on the node of the thread that worked on them
 */
record ModeResult(NumaMode mode, long medianPassNanos, PageNodes pages, long ownNodePages) {
  ModeResult {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(pages, "pages");
  }

  /** {@return the share of pages on their worker's own node, 0 to 1} */
  double ownNodeShare() {
    return pages.pages() == 0 ? 0 : (double) ownNodePages / pages.pages();
  }
}
