package io.github.affinitykit.core;

import java.util.List;

/**
 * A NUMA memory policy as a group sets it on each thread it pins ({@link
 * CpuGroupBuilder#memoryPolicy}). affinity-numa implements it ({@link java.util.ServiceLoader});
 * without it every binding is refused and says so, and the pin stands.
 *
 * <p>Thread safety: implementations are immutable; {@link #apply()} acts on the calling thread.
 */
public interface ThreadMemoryPolicy {
  /**
   * {@return the policy {@code spec} names; without affinity-numa, one whose bindings are refused}
   *
   * @param spec {@code default}, {@code local}, {@code bind 0-1}, {@code preferred 1}, {@code
   *     interleave 0,2}: as {@code MemoryPolicy.toString()} prints it
   * @throws IllegalArgumentException if the artifact is present and {@code spec} names no policy
   */
  static ThreadMemoryPolicy named(String spec) {
    return NoMemoryPolicy.find(spec);
  }

  /**
   * Checks that every node the policy names is one of {@code hostNodes}.
   *
   * @param hostNodes the host's NUMA nodes
   * @return this policy
   * @throws IllegalArgumentException naming the nodes the host lacks
   */
  ThreadMemoryPolicy checkNodes(List<Integer> hostNodes);

  /**
   * Sets the policy on the calling thread, which was just pinned, remembering its previous one.
   * Never throws: a refusal leaves the pin standing, and the binding says why.
   *
   * @return what became of the policy on this thread
   */
  Binding apply();

  /**
   * {@return a binding that set nothing, saying {@code why}}
   *
   * @param why one line for people
   */
  Binding leftAlone(String why);

  /**
   * The policy on one bound thread: what became of it, and its undoing.
   *
   * <p>Thread safety: {@link #restore()} acts on the calling thread; the rest may be read from any
   * thread.
   */
  interface Binding {
    /** {@return whether the policy asked is the thread's now} */
    boolean inForce();

    /** Sets the thread's previous policy again, if this binding set one; once. Never throws. */
    void restore();

    /** {@return one line for reports: {@code memory bind 0: IN_FORCE (was default)}, or empty} */
    @Override
    String toString();
  }

  /**
   * How affinity-numa is found ({@link java.util.ServiceLoader}): it reads a policy's spelling.
   *
   * <p>Thread safety: implementations are safe for concurrent use by any number of threads.
   */
  interface Parser {
    /**
     * {@return the policy {@code spec} names}
     *
     * @param spec the policy, as {@code MemoryPolicy.toString()} prints it
     * @throws IllegalArgumentException if {@code spec} names no policy
     */
    ThreadMemoryPolicy parse(String spec);
  }
}
