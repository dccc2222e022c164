package io.github.affinitykit.agent.boot;

import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * What {@code Thread.run()} calls, on entry and exit, once the agent has instrumented it: this one
 * class is appended to the boot class path, so that {@code java.lang.Thread} (and every other
 * class) can see it; everything it calls lives in the agent's own loader and is installed here. A
 * thread no rule names pays one volatile read and the agent's name check.
 *
 * <p>Thread safety: safe for concurrent use; {@link #install} publishes the agent's code through a
 * volatile field.
 */
public final class ThreadHook {
  private static volatile Predicate<Thread> onStart;
  private static volatile Consumer<Thread> onEnd;

  private ThreadHook() {}

  /**
   * Installs what a thread's {@code run()} calls (the agent, once).
   *
   * @param start called on entry, on the thread itself; true when it bound the thread
   * @param end called on exit from the {@code run()} whose entry returned true
   */
  public static void install(Predicate<Thread> start, Consumer<Thread> end) {
    onEnd = end;
    onStart = start;
  }

  /**
   * Called first in {@code run()}; never throws.
   *
   * @param self the thread whose {@code run()} this is (an {@code Object}, so that the call
   *     verifies in whatever class it was woven into; only the current thread is ever bound)
   * @return whether this call bound the thread (its exit then lets it go)
   */
  @SuppressWarnings("checkstyle:illegalcatch") // the application's run() goes on, whatever failed
  public static boolean enter(Object self) {
    try {
      Predicate<Thread> start = onStart;
      Thread current = Thread.currentThread();
      return start != null && self == current && start.test(current);
    } catch (Throwable e) {
      return false;
    }
  }

  /**
   * Called last in {@code run()}, however it ends; never throws.
   *
   * @param self the thread ending its {@code run()}
   * @param bound what this {@code run()}'s {@link #enter} returned: only then is the thread let go
   */
  @SuppressWarnings("checkstyle:illegalcatch") // the application's run() ends as it would have
  public static void exit(Object self, boolean bound) {
    try {
      Consumer<Thread> end = onEnd;
      if (bound && end != null) {
        end.accept(Thread.currentThread());
      }
    } catch (Throwable e) {
      // nothing to tell the application's thread: its lease is closed by the next scan
    }
  }
}
