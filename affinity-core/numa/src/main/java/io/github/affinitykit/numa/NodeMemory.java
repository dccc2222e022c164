package io.github.affinitykit.numa;

import io.github.affinitykit.core.internal.natives.Errno;
import io.github.affinitykit.numa.internal.MemoryCalls;
import io.github.affinitykit.numa.internal.MemoryLayer;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * Off-heap memory placed on NUMA nodes: {@link #allocate} maps fresh pages, binds them to a {@link
 * MemoryPolicy} before any thread touches them ({@code mbind}: the kernel takes each page from the
 * policy's nodes when it is first touched), and hands them out as a direct {@link ByteBuffer};
 * {@link #pageNodes} says where a direct buffer's pages are ({@code move_pages} without target
 * nodes).
 *
 * <p>Why not {@link ByteBuffer#allocateDirect}: it zeroes its memory as it allocates, so every page
 * is touched (placed by the allocating thread's policy) before a policy could be bound to it, and
 * it shares pages with other allocations. These buffers are their own pages ({@code mmap}), zeroed
 * by the kernel on first touch, and unmapped once the buffer and every view of it are unreachable
 * (a {@link Cleaner}), as {@code allocateDirect}'s are freed; nothing frees them earlier, so no
 * access can outlive the memory. {@code MPOL_MF_MOVE} and {@code MPOL_MF_STRICT} are not used:
 * fresh pages have nothing to move or check.
 *
 * <p>Thread safety: immutable; any thread may allocate and query.
 */
public final class NodeMemory {
  private static final int QUERY_PAGES = 4096;

  private final MemoryCalls calls;
  private final String reason;

  private NodeMemory(MemoryCalls calls, String reason) {
    this.calls = calls;
    this.reason = reason;
  }

  /**
   * Returns node memory on this JVM's native layer; without its memory calls, {@link
   * #isSupported()} is false and {@link #reason()} says why.
   *
   * @return the node memory of this platform
   */
  public static NodeMemory system() {
    return on(MemoryLayer.system());
  }

  static NodeMemory on(MemoryLayer layer) {
    return new NodeMemory(
        layer.calls().orElse(null),
        layer.calls().isPresent() ? "Linux: " + layer.name() + " calls mbind" : layer.why());
  }

  /** {@return whether buffers can be allocated and queried here} */
  public boolean isSupported() {
    return calls != null;
  }

  /** {@return what the calls go through, or why there are none} */
  public String reason() {
    return reason;
  }

  /**
   * Allocates {@code bytes} bytes of fresh pages bound to {@code policy} before their first touch:
   * the buffer starts on a page boundary (a huge-page boundary from a huge page up, and then shares
   * no huge page with other memory), is big-endian (as every new buffer) and reads zeros. A smaller
   * buffer may share a transparent huge page with an adjacent mapping of the same policy, whose
   * first toucher then places both. {@link MemoryPolicy#DEFAULT} binds nothing: the touching
   * thread's policy places each page.
   *
   * @param bytes the capacity; positive
   * @param policy where the pages go
   * @return a direct buffer of {@code bytes}; its pages are unmapped once it is unreachable
   * @throws IllegalArgumentException if {@code bytes} is not positive
   * @throws UnsupportedOperationException if this platform has no memory calls ({@link #reason()})
   * @throws IllegalStateException if the kernel refuses the mapping or the policy ({@code EINVAL}
   *     for a node this host lacks), with the errno; nothing stays mapped
   */
  public ByteBuffer allocate(int bytes, MemoryPolicy policy) {
    Objects.requireNonNull(policy, "policy");
    if (bytes <= 0) {
      throw new IllegalArgumentException("bytes: " + bytes + " (expected: > 0)");
    }
    MemoryCalls c = supported();
    long page = c.pageSize();
    long huge = page * page / 8; // one page-middle-directory entry's span: 2 MiB with 4 KiB pages
    long mapped = bytes < huge ? roundUp(bytes, page) : roundUp(bytes, huge);
    long addr = bytes < huge ? c.map(mapped) : alignedMap(c, mapped, huge);
    if (addr < 0) {
      throw new IllegalStateException("mmap " + mapped + " bytes: " + Errno.describe((int) -addr));
    }
    if (!policy.equals(MemoryPolicy.DEFAULT)) {
      long[] mask = policy.mask();
      long maxnode = mask.length == 0 ? 0 : MemoryCalls.maxnode(mask);
      int r = c.mbind(addr, mapped, policy.mode().kernel(), mask, maxnode, 0);
      if (r < 0) {
        c.unmap(addr, mapped);
        throw new IllegalStateException("mbind " + policy + ": " + Errno.describe(-r));
      }
    }
    ByteBuffer buffer = c.buffer(addr, bytes).order(ByteOrder.BIG_ENDIAN);
    Unmapper.CLEANER.register(buffer, () -> c.unmap(addr, mapped));
    return buffer;
  }

  /**
   * Says where the pages of {@code buffer} are, from its index 0 to its capacity: each page's node,
   * or that no thread has touched it yet.
   *
   * @param buffer a direct buffer (any, not only this class's)
   * @return the pages per node; its errno where the query failed ({@code -1}: no such call here)
   * @throws IllegalArgumentException if {@code buffer} is not direct
   */
  public PageNodes pageNodes(ByteBuffer buffer) {
    if (!buffer.isDirect()) {
      throw new IllegalArgumentException("buffer: " + buffer + " (expected: a direct buffer)");
    }
    if (calls == null) {
      return PageNodes.failed(-1);
    }
    try {
      return pages(buffer);
    } finally { // the buffer's Cleaner must not unmap it while the kernel reads its pages
      Reference.reachabilityFence(buffer);
    }
  }

  private PageNodes pages(ByteBuffer buffer) {
    long page = calls.pageSize();
    long start = calls.address(buffer) / page * page;
    long end = calls.address(buffer) + buffer.capacity();
    int[] status = new int[(int) ((end - start + page - 1) / page)];
    for (int from = 0; from < status.length; from += QUERY_PAGES) {
      int n = Math.min(QUERY_PAGES, status.length - from);
      long[] pages = new long[n];
      for (int i = 0; i < n; i++) {
        pages[i] = start + (from + i) * page;
      }
      int[] part = new int[n];
      long r = calls.movePages(0, pages, null, part, 0);
      if (r < 0) {
        return PageNodes.failed((int) -r);
      }
      System.arraycopy(part, 0, status, from, n);
    }
    return PageNodes.of(status);
  }

  /**
   * Maps {@code bytes} (a multiple of {@code huge}) starting on a huge-page boundary, so that no
   * transparent huge page is shared with a neighbouring mapping: the kernel merges adjacent
   * anonymous mappings of one policy, and a huge page straddling two buffers is placed whole by the
   * thread that touches it first (a 6.1 guest put 510 of one worker's 2,048 local pages on the
   * other worker's node that way). Maps {@code huge} more and unmaps the slack either side.
   */
  private static long alignedMap(MemoryCalls c, long bytes, long huge) {
    long raw = c.map(bytes + huge);
    if (raw < 0) {
      return raw;
    }
    long start = roundUp(raw, huge);
    long head = start - raw;
    long tail = huge - head;
    int r = head == 0 ? 0 : c.unmap(raw, head);
    if (r == 0 && tail > 0) {
      r = c.unmap(start + bytes, tail);
    }
    if (r < 0) {
      c.unmap(raw, bytes + huge);
      return r;
    }
    return start;
  }

  private static long roundUp(long n, long unit) {
    return (n + unit - 1) / unit * unit;
  }

  private MemoryCalls supported() {
    if (calls == null) {
      throw new UnsupportedOperationException("node memory: " + reason);
    }
    return calls;
  }

  @Override
  public String toString() {
    return "NodeMemory[" + reason + "]";
  }

  /** The one cleaner of mapped buffers, started on the first allocation. */
  private static final class Unmapper {
    static final Cleaner CLEANER = Cleaner.create();
  }
}
