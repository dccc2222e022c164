package io.github.affinitykit.numa;

import io.github.affinitykit.core.internal.natives.Errno;
import io.github.affinitykit.numa.internal.MemoryCalls;
import io.github.affinitykit.numa.internal.MemoryLayer;
import java.util.BitSet;

/**
 * The thread policy calls on Linux, through the {@link MemoryLayer}'s {@link MemoryCalls}; or,
 * where it has none, a backend that answers errno {@code -1} with its reason.
 *
 * <p>Thread safety: immutable; each call acts on the calling thread.
 */
final class LinuxMemoryBackend implements MemoryBackend {
  /** Words of the mask {@code get_mempolicy} fills: 1024 nodes, the kernel's largest. */
  private static final int MASK_WORDS = (MemoryPolicy.MAX_NODE + 1) / 64;

  private final MemoryCalls calls;
  private final String reason;

  private LinuxMemoryBackend(MemoryCalls calls, String reason) {
    this.calls = calls;
    this.reason = reason;
  }

  /** The backend on {@code layer}: its memory calls, or none with its reason. */
  static MemoryBackend on(MemoryLayer layer) {
    return layer
        .calls()
        .<MemoryBackend>map(
            c -> new LinuxMemoryBackend(c, "Linux: " + layer.name() + " calls set_mempolicy"))
        .orElseGet(() -> new LinuxMemoryBackend(null, layer.why()));
  }

  @Override
  public boolean isSupported() {
    return calls != null;
  }

  @Override
  public String reason() {
    return reason;
  }

  @Override
  public Reading read() {
    if (calls == null) {
      return new Reading(MemoryPolicy.DEFAULT, -1);
    }
    int[] mode = {0};
    long[] mask = new long[MASK_WORDS];
    int r = calls.getMempolicy(mode, mask, MemoryCalls.maxnode(mask), 0, 0);
    if (r < 0) {
      return new Reading(MemoryPolicy.DEFAULT, -r);
    }
    int[] nodes = BitSet.valueOf(mask).stream().toArray();
    try {
      return new Reading(MemoryPolicy.of(MemoryPolicy.Mode.ofKernel(mode[0]), nodes), 0);
    } catch (IllegalArgumentException e) { // a mode newer than this library: not restorable
      return new Reading(MemoryPolicy.DEFAULT, Errno.EINVAL);
    }
  }

  @Override
  public int set(MemoryPolicy policy) {
    if (calls == null) {
      return -1;
    }
    long[] mask = policy.mask();
    long maxnode = mask.length == 0 ? 0 : MemoryCalls.maxnode(mask);
    return -calls.setMempolicy(policy.mode().kernel(), mask, maxnode);
  }

  @Override
  public String toString() {
    return "LinuxMemoryBackend[" + reason + "]";
  }
}
