package io.github.affinitykit.core.internal;

import java.lang.reflect.Method;

/**
 * Tells a virtual thread (JDK 21+) from a platform one on a core compiled for 17: a mask set "for"
 * a virtual thread is its carrier's (see ARCHITECTURE.md, "A virtual thread is never pinned").
 *
 * <p>Thread safety: stateless; the method is looked up once, when the class loads.
 */
public final class VirtualThreads {
  /** Why a virtual thread is not pinned: the lease's reason. */
  public static final String NOT_PINNED =
      "a virtual thread cannot be pinned: its mask would be its carrier's, inherited by every"
          + " virtual thread that runs there; pin platform threads (or the carriers)";

  private static final Method IS_VIRTUAL = find(); // reflection, no I/O

  private VirtualThreads() {}

  /** {@return whether {@code thread} is virtual; always false before JDK 21} */
  public static boolean isVirtual(Thread thread) {
    Method isVirtual = IS_VIRTUAL;
    try {
      return isVirtual != null && (boolean) isVirtual.invoke(thread);
    } catch (ReflectiveOperationException e) { // public, and it throws nothing
      throw new IllegalStateException("Thread.isVirtual(): " + e, e);
    }
  }

  private static Method find() {
    try {
      return Thread.class.getMethod("isVirtual");
    } catch (NoSuchMethodException e) {
      return null; // JDK 17-20: there are no virtual threads
    }
  }
}
