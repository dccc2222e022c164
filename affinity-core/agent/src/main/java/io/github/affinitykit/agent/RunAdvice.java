package io.github.affinitykit.agent;

import io.github.affinitykit.agent.boot.ThreadHook;
import net.bytebuddy.asm.Advice;

/**
 * The code Byte Buddy inlines into {@code run()} of {@code java.lang.Thread} and of every subclass
 * that declares its own: it runs on the new thread itself before the first line of its work (the
 * Java name is whole there, and the kernel's thread id is the caller's). A subclass whose {@code
 * run()} calls {@code super.run()} enters twice; only the outer entry binds, and only its exit lets
 * go.
 *
 * <p>Thread safety: stateless.
 */
final class RunAdvice {
  private RunAdvice() {}

  @Advice.OnMethodEnter(suppress = Throwable.class)
  static boolean enter(@Advice.This Thread self) {
    return ThreadHook.enter(self);
  }

  @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
  static void exit(@Advice.Enter boolean bound, @Advice.This Thread self) {
    if (bound) {
      ThreadHook.exit(self);
    }
  }
}
