/**
 * Affinity Kit's NUMA memory policy ({@code io.github.affinitykit.numa}): the policy each pinned
 * thread of a group takes ({@code MemoryPolicy}, set on that thread right after its affinity and
 * restored on close), and off-heap buffers placed on nodes ({@code NodeMemory}). A pinning library
 * needs none of it, so it is an artifact of its own; a group takes it through core's {@link
 * io.github.affinitykit.core.ThreadMemoryPolicy}, and core reads a policy's name through this
 * artifact's {@link io.github.affinitykit.core.ThreadMemoryPolicy.Parser}, found with {@link
 * java.util.ServiceLoader}. Its memory calls ({@code set_mempolicy}, {@code mbind}, {@code
 * move_pages}...) are its own, through JNA or, on JDK 22+, {@code java.lang.foreign}, as core's
 * native layer chose.
 */
module io.github.affinitykit.numa {
  requires transitive io.github.affinitykit.core;
  requires com.sun.jna;

  exports io.github.affinitykit.numa;

  provides io.github.affinitykit.core.ThreadMemoryPolicy.Parser with
      io.github.affinitykit.numa.internal.PolicyParser;

  // JNA registers the memory calls' direct-mapped natives (on JDK 22+ they use java.lang.foreign:
  // run with --enable-native-access=io.github.affinitykit.core,io.github.affinitykit.numa).
  opens io.github.affinitykit.numa.internal to
      com.sun.jna;
}
