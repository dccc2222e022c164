package io.github.affinitykit.core;

/**
 * Told of each change a {@link Watchdog} finds.
 *
 * <p>Thread safety: called on the watchdog's thread (or the thread calling {@link
 * Watchdog#checkNow()}), one event at a time, in the order found, while that check holds the
 * watchdog's lock: keep it short. An exception or error it throws (the JVM's own errors aside) is
 * counted ({@link Watchdog#listenerFailures()}) and does not stop the watchdog or the other
 * listeners.
 */
@FunctionalInterface
public interface WatchListener {
  /**
   * Takes one event.
   *
   * @param event what changed; never null
   */
  void onEvent(WatchEvent event);
}
