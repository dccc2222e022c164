package io.github.affinitykit.netty.gateway;

import io.github.affinitykit.core.AffinityKit;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * Runs the gateway: {@code java -XX:+ExitOnOutOfMemoryError -jar <gateway jar> --port 8080 --pin
 * exclusive}. Prints {@code gateway listening on HOST:PORT} once bound (scripts wait for that
 * line), then where every loop runs. SIGTERM (or Ctrl-C) stops it gracefully: 1001 to every
 * WebSocket, drain, free the CPUs.
 *
 * <p>Exit status: 0 after {@code --help}; 143 after SIGTERM (128 + 15, once the graceful stop has
 * run); {@value #EXIT_USAGE} for a bad command line or configuration (an option, {@code
 * -Daffinitykit.pool} or {@code AFFINITYKIT_POOL}), in one line on stderr naming it, its value and
 * the rule; {@value #EXIT_UNAVAILABLE} when it cannot listen (address in use); {@value #EXIT_FATAL}
 * on an {@link OutOfMemoryError} or any other {@link VirtualMachineError} in any thread (the JVM
 * halts at once: the kernel frees the port and the CPU locks). {@code -XX:+ExitOnOutOfMemoryError}
 * exits with the same status for the out-of-memory errors Netty would otherwise catch and log.
 *
 * <p>Thread safety: a program entry point.
 */
public final class GatewayMain {
  /** Exit status for a bad command line or configuration. */
  public static final int EXIT_USAGE = 2;

  /** Exit status when the gateway cannot listen. */
  public static final int EXIT_UNAVAILABLE = 1;

  /** Exit status after a {@link VirtualMachineError}; the JVM's own for ExitOnOutOfMemoryError. */
  public static final int EXIT_FATAL = 3;

  private GatewayMain() {}

  /**
   * Parses {@code args} ({@link GatewayArgs#USAGE}), starts the gateway and blocks until it has
   * stopped; exits with the status of the class comment.
   *
   * @throws InterruptedException if the main thread is interrupted while waiting
   */
  public static void main(String[] args) throws InterruptedException {
    Thread.setDefaultUncaughtExceptionHandler(GatewayMain::uncaught);
    int status = run(args, AffinityKit::shared, System.out, System.err);
    if (status != 0) {
      System.exit(status);
    }
  }

  /** Runs the gateway with the kit {@code kits} gives; returns the exit status. */
  static int run(String[] args, Supplier<AffinityKit> kits, PrintStream out, PrintStream err)
      throws InterruptedException {
    if (Arrays.asList(args).contains("--help")) {
      out.println(GatewayArgs.USAGE);
      return 0;
    }
    GatewayConfig config;
    try {
      config = GatewayArgs.parse(args);
    } catch (IllegalArgumentException e) {
      err.println("gateway: " + e.getMessage());
      err.println(GatewayArgs.USAGE);
      return EXIT_USAGE;
    }
    AffinityKit kit;
    GatewayServer server;
    try {
      kit = kits.get(); // probe the host before anything is pinned; reads the pool override
      server = GatewayServer.start(config, kit);
    } catch (IllegalArgumentException | IllegalStateException e) {
      err.println("gateway: " + e.getMessage());
      return EXIT_USAGE;
    } catch (Exception e) { // Netty rethrows the bind's BindException undeclared
      err.println("gateway: cannot listen on " + config.host() + ":" + config.port() + ": " + e);
      return EXIT_UNAVAILABLE;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(server, out), "gateway-shutdown"));
    out.println("gateway listening on " + config.host() + ":" + server.port());
    out.println(
        "pin "
            + config.pin().cliName()
            + ", pool "
            + kit.pool().cpus()
            + ": "
            + kit.pool().reason());
    out.println(server.report());
    server.confined().ifPresent(r -> out.println(r.summary()));
    if (!exitsOnOutOfMemory()) {
      err.println(
          "gateway: warning: -XX:+ExitOnOutOfMemoryError is not set: an OutOfMemoryError that"
              + " Netty catches would leave the gateway running half-dead");
    }
    server.awaitStopped();
    return 0;
  }

  private static void stop(GatewayServer server, PrintStream out) {
    server.close();
    GatewayMetrics m = server.metrics();
    out.println(
        "gateway stopped: "
            + m.messagesIn()
            + " messages in, "
            + m.messagesOut()
            + " out, closes sent "
            + m.closesSent());
  }

  private static boolean exitsOnOutOfMemory() {
    return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .anyMatch(
            a ->
                a.equals("-XX:+ExitOnOutOfMemoryError")
                    || a.equals("-XX:+CrashOnOutOfMemoryError"));
  }

  /** The JVM-wide uncaught-exception handler: halts on a VirtualMachineError, else prints. */
  static void uncaught(Thread t, Throwable e) {
    if (e instanceof VirtualMachineError) {
      try {
        System.err.println("gateway: fatal: " + e + " in thread " + t.getName() + "; halting");
      } finally {
        Runtime.getRuntime().halt(EXIT_FATAL);
      }
    }
    System.err.print("Exception in thread \"" + t.getName() + "\" ");
    e.printStackTrace(System.err);
  }
}
