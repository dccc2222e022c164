package io.github.affinitykit.vertx;

/**
 * What a thread Vert.x asks for is for, told from what the SPI passes: the name Vert.x gives it and
 * its worker flag. The SPI says no more: event loops and the acceptor are both non-workers, told
 * apart by their names alone; so are the event loops and the short-lived threads Vert.x makes from
 * the event loops' factory when it closes (numbered past the pool's size).
 *
 * <p>Thread safety: immutable.
 */
enum ThreadRole {
  /** One of the {@code eventLoopPoolSize} event loops: pinned, one CPU each. */
  EVENT_LOOP,
  /** A thread of a worker pool (Vert.x's own, or a named one): pinned only if asked. */
  WORKER,
  /** The acceptor, the internal blocking pool, or a thread made while Vert.x closes. */
  OTHER;

  static final String EVENT_LOOP_PREFIX = "vert.x-eventloop-thread-";
  static final String INTERNAL_BLOCKING_PREFIX = "vert.x-internal-blocking-";

  /**
   * Returns the role of the thread named {@code name}.
   *
   * @param name the name Vert.x gives the thread ({@code <prefix><n>})
   * @param worker the SPI's worker flag (blocking code may run on it)
   * @param eventLoops the Vert.x instance's event loop pool size
   */
  static ThreadRole of(String name, boolean worker, int eventLoops) {
    if (worker) {
      return name.startsWith(INTERNAL_BLOCKING_PREFIX) ? OTHER : WORKER;
    }
    if (name.startsWith(EVENT_LOOP_PREFIX)) {
      String n = name.substring(EVENT_LOOP_PREFIX.length());
      return isIndex(n) && Integer.parseInt(n) < eventLoops ? EVENT_LOOP : OTHER;
    }
    return OTHER;
  }

  private static boolean isIndex(String n) {
    return !n.isEmpty() && n.length() < 10 && n.chars().allMatch(c -> c >= '0' && c <= '9');
  }
}
