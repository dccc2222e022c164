package io.github.affinitykit.numa.internal;

import io.github.affinitykit.core.internal.natives.LinuxAbi;
import java.nio.ByteBuffer;

/**
 * The calls of NUMA memory policy, one implementation per native technology ({@code
 * JnaMemoryCalls}, {@code FfmMemoryCalls}), chosen by {@link MemoryLayer} as core's native layer
 * chose: the policy calls through {@code syscall(2)} (glibc has no wrappers; libnuma is not
 * assumed), and the mappings their callers need. Every call returns its result, or {@code -errno}
 * (core's {@code Errno}). A node mask is laid out as core's CPU masks (64 nodes a word); {@code
 * maxnode} is the kernel's argument, which reads {@code maxnode - 1} bits: pass {@link
 * #maxnode(long[])}. An empty mask is passed as {@code NULL}.
 *
 * <p>Thread safety: implementations are safe for concurrent use by any number of threads; the
 * policy calls act on the calling thread.
 */
public interface MemoryCalls {
  int MPOL_DEFAULT = 0; // the system default (allocation on the node of the CPU that touches)
  int MPOL_PREFERRED = 1; // one node first, others when it is full
  int MPOL_BIND = 2; // only the nodes of the mask
  int MPOL_INTERLEAVE = 3; // page by page over the nodes of the mask
  int MPOL_LOCAL = 4; // the node of the CPU that allocates (Linux 3.8+)
  int MPOL_MF_STRICT = 1; // mbind fails with EIO for pages off the policy
  int MPOL_MF_MOVE = 2; // mbind moves this process's pages onto the policy's nodes
  int SET_MEMPOLICY = 0; // indexes of numbers(abi)
  int GET_MEMPOLICY = 1;
  int MBIND = 2;
  int MOVE_PAGES = 3;

  /**
   * The {@code syscall(2)} numbers of {@code set_mempolicy}, {@code get_mempolicy}, {@code mbind}
   * and {@code move_pages} on {@code abi} (x86-64: {@code syscall_64.tbl}; aarch64: {@code
   * asm-generic/unistd.h}); none (empty) elsewhere.
   */
  static int[] numbers(LinuxAbi abi) {
    switch (abi) {
      case X86_64:
        return new int[] {238, 239, 237, 279};
      case AARCH64:
        return new int[] {237, 236, 235, 239};
      default:
        return new int[0];
    }
  }

  /** Returns {@code maxnode} for a mask of {@code mask.length} words: every bit of it read. */
  static long maxnode(long[] mask) {
    return mask.length * 64L + 1;
  }

  /** Checks that the kernel cannot read or write past {@code nodemask}. */
  static void checkMask(long[] nodemask, long maxnode) {
    if (maxnode < 0 || maxnode > maxnode(nodemask)) {
      throw new IllegalArgumentException(
          "maxnode: " + maxnode + " (expected: 0 to 64 x words + 1 = " + maxnode(nodemask) + ")");
    }
  }

  /** Checks {@code get_mempolicy}'s arrays: room for the mode, and {@link #checkMask}. */
  static void checkRead(int[] mode, long[] nodemask, long maxnode) {
    if (mode.length < 1) {
      throw new IllegalArgumentException("mode: int[0] (expected: room for the mode)");
    }
    checkMask(nodemask, maxnode);
  }

  /**
   * Checks {@code move_pages}' arrays: {@code status} and {@code nodes} as long as {@code pages}.
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

  /** An anonymous private read-write {@code mmap}: fresh untouched pages, or {@code -errno}. */
  long map(long bytes);

  /** {@code munmap(addr, bytes)}: 0 or {@code -errno}. */
  int unmap(long addr, long bytes);

  /** {@code getpagesize()}: the bytes of a page. */
  int pageSize();

  /** A direct buffer over {@code bytes} at {@code addr} (memory the caller owns and frees). */
  ByteBuffer buffer(long addr, int bytes);

  /** The address of a direct buffer's index 0; {@link IllegalArgumentException} if not direct. */
  long address(ByteBuffer buffer);
}
