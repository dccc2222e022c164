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
   * Called first in {@code run()}.
   *
   * @param self the thread whose {@code run()} this is
   * @return whether this call bound the thread (its exit must then call {@link #exit})
   */
  public static boolean enter(Thread self) {
    Predicate<Thread> start = onStart;
    return start != null && self == Thread.currentThread() && start.test(self);
  }

  /**
   * Called last in a {@code run()} whose {@link #enter} returned true, however it ends.
   *
   * @param self the thread ending
   */
  public static void exit(Thread self) {
    Consumer<Thread> end = onEnd;
    if (end != null) {
      end.accept(self);
    }
  }
}
