package io.github.affinitykit.numa.internal;

import io.github.affinitykit.core.ThreadMemoryPolicy;
import io.github.affinitykit.numa.MemoryPolicy;

/**
 * How core reads a memory policy's name ({@link ThreadMemoryPolicy#named(String)}) when this
 * artifact is on the path: {@link MemoryPolicy#parse}. Found by {@link java.util.ServiceLoader}.
 *
 * <p>Thread safety: stateless.
 */
public final class PolicyParser implements ThreadMemoryPolicy.Parser {
  /** The provider, as {@link java.util.ServiceLoader} makes it. */
  public PolicyParser() {}

  @Override
  public ThreadMemoryPolicy parse(String spec) {
    return MemoryPolicy.parse(spec);
  }
}
