package io.github.affinitykit.numa;

import io.github.affinitykit.core.internal.natives.Errno;
import java.util.Collections;
import java.util.SortedMap;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * Where the pages of a buffer are: how many on each node, how many no thread has touched yet (the
 * kernel has given them no page), how many it could not say; or why the whole query failed.
 *
 * <p>Thread safety: immutable.
 *
 * @param pagesByNode pages per node, by node ascending; unmodifiable
 * @param untouched pages not yet touched: {@code ENOENT} from {@code move_pages} (6.18), or {@code
 *     EFAULT}, which older kernels give a not-yet-present page of an anonymous mapping (seen on
 *     Debian 12's 6.1; the buffer asked about is live, so its range is mapped). On such a kernel a
 *     page the automatic NUMA balancing has just unmapped to sample it reads so too: turn it off
 *     where placement matters ({@code HostWarning.Kind#NUMA_BALANCING_ON})
 * @param unknown pages the kernel could not place (any other errno for that page)
 * @param errno 0, the errno of a failed query, or {@code -1} where the platform has no such call
 */
public record PageNodes(
    SortedMap<Integer, Integer> pagesByNode, int untouched, int unknown, int errno) {
  /**
   * Copies the map.
   *
   * @param pagesByNode pages per node, by node
   * @param untouched pages not yet touched
   * @param unknown pages the kernel could not place
   * @param errno 0, the errno of a failed query, or {@code -1} where the platform has no such call
   * @throws NullPointerException if {@code pagesByNode} is null
   */
  public PageNodes {
    pagesByNode = Collections.unmodifiableSortedMap(new TreeMap<>(pagesByNode));
  }

  /** The counts of {@code move_pages}' answer: each page's node, or {@code -errno}. */
  static PageNodes of(int[] status) {
    SortedMap<Integer, Integer> nodes = new TreeMap<>();
    int untouched = 0;
    int unknown = 0;
    for (int s : status) {
      if (s >= 0) {
        nodes.merge(s, 1, Integer::sum);
      } else if (s == -Errno.ENOENT || s == -Errno.EFAULT) { // EFAULT: older kernels, see above
        untouched++;
      } else {
        unknown++;
      }
    }
    return new PageNodes(nodes, untouched, unknown, 0);
  }

  /** A query that failed with {@code errno}. */
  static PageNodes failed(int errno) {
    return new PageNodes(new TreeMap<>(), 0, 0, errno);
  }

  /**
   * Returns the pages on {@code node}.
   *
   * @param node a node
   * @return its pages; 0 if none
   */
  public int pagesOn(int node) {
    return pagesByNode.getOrDefault(node, 0);
  }

  /** {@return every page counted: on a node, untouched or unknown} */
  public int pages() {
    return pagesByNode.values().stream().mapToInt(Integer::intValue).sum() + untouched + unknown;
  }

  /** {@return {@code node 0: 2 pages, 2 untouched}, or the failure} */
  @Override
  public String toString() {
    if (errno != 0) {
      return errno < 0 ? "no move_pages call" : "move_pages: " + Errno.describe(errno);
    }
    StringJoiner j = new StringJoiner(", ");
    pagesByNode.forEach((node, n) -> j.add("node " + node + ": " + n + " pages"));
    if (untouched > 0) {
      j.add(untouched + " untouched");
    }
    if (unknown > 0) {
      j.add(unknown + " unknown");
    }
    return j.length() == 0 ? "no pages" : j.toString();
  }
}
