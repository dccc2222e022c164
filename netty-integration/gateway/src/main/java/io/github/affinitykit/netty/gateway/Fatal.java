package io.github.affinitykit.netty.gateway;

/**
 * Errors after which the JVM cannot be trusted ({@link VirtualMachineError}: out of memory, stack
 * overflow, internal error). Netty hands them to {@code exceptionCaught} like any exception; the
 * gateway's handlers pass them on to the thread's uncaught-exception handler, which {@link
 * GatewayMain} sets to halt the JVM with {@link GatewayMain#EXIT_FATAL}: a half-dead gateway that
 * still holds its port and CPUs helps nobody.
 *
 * <p>Thread safety: stateless.
 */
final class Fatal {
  private Fatal() {}

  /** Passes {@code cause} to this thread's uncaught-exception handler if it is fatal. */
  static void report(Throwable cause) {
    if (cause instanceof VirtualMachineError) {
      Thread t = Thread.currentThread();
      t.getUncaughtExceptionHandler().uncaughtException(t, cause);
    }
  }
}
