package io.github.affinitykit.core.internal.natives;

import java.nio.ByteBuffer;

/**
 * The calls of NUMA memory policy, one implementation per native technology, chosen once by {@link
 * NativeLayer}: {@code set_mempolicy}, {@code get_mempolicy}, {@code mbind} and {@code move_pages}
 * through {@code syscall(2)} with their numbers in {@link LinuxAbi} (glibc has no wrappers and
 * libnuma is not assumed), and the anonymous mappings and buffer addresses their callers need
 * ({@code mmap}, {@code munmap}, {@code getpagesize}, bound by name). Every call returns its
 * result, or {@code -errno} when it fails ({@link Errno}): nothing throws for a kernel refusal.
 *
 * <p>A node mask is a {@code long[]} laid out as the CPU masks of {@link ThreadCalls}: bit {@code
 * i} of word {@code w} is node {@code 64w + i}. {@code maxnode} is the kernel's argument, which
 * reads {@code maxnode - 1} bits: pass {@link #maxnode(long[])}. An empty mask is passed as {@code
 * NULL}.
 *
 * <p>Thread safety: implementations are safe for concurrent use by any number of threads; the
 * policy calls act on the calling thread.
 */
public interface MemoryCalls {
  /** {@code MPOL_DEFAULT}: the system default (allocation on the node of the CPU that touches). */
  int MPOL_DEFAULT = 0;

  /** {@code MPOL_PREFERRED}: one node first, others when it is full. */
  int MPOL_PREFERRED = 1;

  /** {@code MPOL_BIND}: only the nodes of the mask. */
  int MPOL_BIND = 2;

  /** {@code MPOL_INTERLEAVE}: page by page over the nodes of the mask. */
  int MPOL_INTERLEAVE = 3;

  /** {@code MPOL_LOCAL}: the node of the CPU that allocates (Linux 3.8+). */
  int MPOL_LOCAL = 4;

  /** {@code MPOL_MF_STRICT}: {@code mbind} fails with {@code EIO} for pages off the policy. */
  int MPOL_MF_STRICT = 1;

  /** {@code MPOL_MF_MOVE}: {@code mbind} moves this process's pages onto the policy's nodes. */
  int MPOL_MF_MOVE = 2;

  /** Returns {@code maxnode} for a mask of {@code mask.length} words: every bit of it read. */
  static long maxnode(long[] mask) {
    return mask.length * 64L + 1;
  }

  /**
   * Checks that the kernel cannot write or read past {@code nodemask}: {@code maxnode} at most
   * {@link #maxnode(long[])} of it. Every implementation calls it first.
   *
   * @throws IllegalArgumentException naming the values and the rule
   */
  static void checkMask(long[] nodemask, long maxnode) {
    if (maxnode < 0 || maxnode > maxnode(nodemask)) {
      throw new IllegalArgumentException(
          "maxnode: " + maxnode + " (expected: 0 to 64 x words + 1 = " + maxnode(nodemask) + ")");
    }
  }

  /**
   * Checks {@code get_mempolicy}'s arrays: room for the mode, and {@link #checkMask}.
   *
   * @throws IllegalArgumentException naming the value and the rule
   */
  static void checkRead(int[] mode, long[] nodemask, long maxnode) {
    if (mode.length < 1) {
      throw new IllegalArgumentException("mode: int[0] (expected: room for the mode)");
    }
    checkMask(nodemask, maxnode);
  }

  /**
   * Checks {@code move_pages}' arrays: {@code status}, and {@code nodes} if given, as long as
   * {@code pages}. Every implementation calls it first.
   *
   * @throws IllegalArgumentException naming the lengths and the rule
   */
  static void checkPages(long[] pages, int[] nodes, int[] status) {
    if (status.length < pages.length || (nodes != null && nodes.length < pages.length)) {
      throw new IllegalArgumentException(
          "status/nodes: "
              + status.length
              + "/"
              + (nodes == null ? "none" : nodes.length)
              + " (expected: at least pages.length = "
              + pages.length
              + ")");
    }
  }

  /**
   * {@code set_mempolicy(mode, nodemask, maxnode)} for the calling thread: 0, or {@code -errno}
   * ({@code -EINVAL} for a node this host lacks or an empty mask where nodes are due).
   */
  int setMempolicy(int mode, long[] nodemask, long maxnode);

  /**
   * {@code get_mempolicy(&mode, nodemask, maxnode, addr, flags)}: 0, with {@code mode[0]} and
   * {@code nodemask} filled, or {@code -errno}; {@code maxnode} must cover the host's nodes.
   */
  int getMempolicy(int[] mode, long[] nodemask, long maxnode, long addr, int flags);

  /** {@code mbind(addr, len, mode, nodemask, maxnode, flags)}: 0 or {@code -errno}. */
  int mbind(long addr, long len, int mode, long[] nodemask, long maxnode, int flags);

  /**
   * {@code move_pages(pid, pages.length, pages, nodes, status, flags)}: 0 with {@code status}
   * filled (each page's node, or {@code -errno} for that page: {@code -ENOENT} not yet touched), or
   * {@code -errno}. {@code nodes} null only asks where the pages are; {@code pid} 0 is this
   * process.
   */
  long movePages(int pid, long[] pages, int[] nodes, int[] status, int flags);

  /**
   * {@code mmap(NULL, bytes, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0)}: the address
   * of fresh pages no thread has touched yet, or {@code -errno}.
   */
  long map(long bytes);

  /** {@code munmap(addr, bytes)}: 0 or {@code -errno}. */
  int unmap(long addr, long bytes);

  /** {@code getpagesize()}: the bytes of a page. */
  int pageSize();

  /**
   * Returns a direct buffer over {@code bytes} bytes at {@code addr} (memory this caller owns, such
   * as {@link #map}'s): nothing frees it with the buffer.
   */
  ByteBuffer buffer(long addr, int bytes);

  /**
   * Returns the address of a direct buffer's first byte (index 0, whatever its position).
   *
   * @throws IllegalArgumentException if {@code buffer} is not direct
   */
  long address(ByteBuffer buffer);
}
