/**
 * Affinity Kit's NUMA memory policy ({@code io.github.affinitykit.numa}): the policy each pinned
 * thread of a group takes ({@code MemoryPolicy}, set on that thread right after its affinity and
 * restored on close), and off-heap buffers placed on nodes ({@code NodeMemory}). A pinning library
 * needs none of it, so it is an artifact of its own; a group takes it through core's {@link
 * io.github.affinitykit.core.ThreadMemoryPolicy}, and core reads a policy's name through this
 * artifact's {@link io.github.affinitykit.core.ThreadMemoryPolicy.Parser}, found with {@link
 * java.util.ServiceLoader}.
 */
module io.github.affinitykit.numa {
  requires transitive io.github.affinitykit.core;

  exports io.github.affinitykit.numa;

  provides io.github.affinitykit.core.ThreadMemoryPolicy.Parser with
      io.github.affinitykit.numa.internal.PolicyParser;
}
