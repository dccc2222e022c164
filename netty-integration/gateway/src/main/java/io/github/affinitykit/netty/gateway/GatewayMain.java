package io.github.affinitykit.netty.gateway;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cli.CommandLines;
import io.github.affinitykit.isolation.Isolation;
import io.github.affinitykit.isolation.IsolationReport;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import picocli.CommandLine;

/**
 * Runs the gateway: {@code java -XX:+ExitOnOutOfMemoryError -jar <gateway jar> --port 8080 --pin
 * exclusive}. Prints {@code gateway listening on HOST:PORT} once bound (scripts wait for that
 * line), then where every loop runs. SIGTERM (or Ctrl-C) stops it gracefully: 1001 to every
 * WebSocket, drain, free the CPUs.
 *
 * <p>Exit status: 0 after {@code --help} or {@code --version}; 143 after SIGTERM (128 + 15, once
 * the graceful stop has run); {@value #EXIT_USAGE} for a bad command line or configuration (an
 * option, {@code -Daffinitykit.pool} or {@code AFFINITYKIT_POOL}), in one line on stderr naming it,
 * its value and the rule; {@value #EXIT_UNAVAILABLE} when it cannot listen (address in use);
 * {@value #EXIT_FATAL} on an {@link OutOfMemoryError} or any other {@link VirtualMachineError} in
 * any thread: with {@code --pin isolated} the isolation is first put back, within {@code
 * --restore-timeout} (5 s; {@link FatalRestorer}), then the JVM halts (the kernel frees the port
 * and the CPU locks). {@code -XX:+ExitOnOutOfMemoryError} exits with the same status for the
 * out-of-memory errors Netty would otherwise catch and log, but at once, before any Java code runs:
 * with {@code --pin isolated} leave it out (the gateway warns), or the isolation stays until {@code
 * affinity-cli release} (or the next isolating start) undoes it.
 *
 * <p>Thread safety: a program entry point.
 */
public final class GatewayMain {
  /** Exit status for a bad command line or configuration. */
  public static final int EXIT_USAGE = CommandLines.USAGE_ERROR;

  /** Exit status when the gateway cannot listen. */
  public static final int EXIT_UNAVAILABLE = 1;

  /** Exit status after a {@link VirtualMachineError}; the JVM's own for ExitOnOutOfMemoryError. */
  public static final int EXIT_FATAL = 3;

  private GatewayMain() {}

  /**
   * Runs the gateway's command line ({@code --help} lists it) on the shared kit, blocks until the
   * gateway has stopped, and exits with the status of the class comment. The uncaught-exception
   * handler that restores the isolation and halts on a {@link VirtualMachineError} is installed
   * first.
   */
  public static void main(String[] args) {
    FatalRestorer restorer = installFatalHandler();
    System.exit(
        execute(AffinityKit::shared, restorer::watch, List.of(args), System.out, System.err));
  }

  /**
   * Starts the restorer's thread and makes {@link FatalHalt} the JVM's default uncaught-exception
   * handler, halting through {@link Runtime#halt}; returns the restorer, for the isolation.
   */
  static FatalRestorer installFatalHandler() {
    FatalRestorer restorer = FatalRestorer.start();
    Thread.setDefaultUncaughtExceptionHandler(
        new FatalHalt(restorer, System.err, Runtime.getRuntime()::halt));
    return restorer;
  }

  /** Runs the command line {@code args} on the kit {@code kits} supplies; the exit status. */
  static int execute(
      Supplier<AffinityKit> kits, List<String> args, PrintStream out, PrintStream err) {
    return execute(kits, (iso, bound) -> {}, args, out, err);
  }

  /** As {@link #execute(Supplier, List, PrintStream, PrintStream)}, watching the isolation. */
  static int execute(
      Supplier<AffinityKit> kits,
      BiConsumer<Isolation, Duration> restoreAtFatal,
      List<String> args,
      PrintStream out,
      PrintStream err) {
    return CommandLines.execute(
        new CommandLine(new GatewayCommand(kits, restoreAtFatal)), args, out, err);
  }

  /**
   * Serves with {@code server} until it has stopped: the stop on SIGTERM, then {@code gateway
   * listening on HOST:PORT} (scripts wait for that line) and where every loop runs.
   */
  static void serve(
      GatewayServer server, GatewayConfig config, AffinityKit kit, PrintWriter out, PrintWriter err)
      throws InterruptedException {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(server, out), "gateway-shutdown"));
    out.println("gateway listening on " + config.host() + ":" + server.port());
    server
        .metricsPort()
        .ifPresent(
            p ->
                out.println(
                    "metrics listening on "
                        + config.metricsAddress().orElseThrow().getHostString()
                        + ":"
                        + p));
    out.println(
        "pin "
            + config.pin().cliName()
            + ", pool "
            + kit.pool().cpus()
            + ": "
            + kit.pool().reason());
    out.println(server.report());
    server.confined().ifPresent(r -> out.println(r.summary()));
    server.isolation().ifPresent(i -> out.println(isolationLine(i)));
    server
        .isolation()
        .ifPresent(
            i -> i.report().recovered().forEach(r -> out.println("isolation recovered: " + r)));
    outOfMemoryWarning(config.pin(), exitsOnOutOfMemory()).ifPresent(err::println);
    server.awaitStopped();
  }

  /**
   * One line on the workers' runtime isolation, which a load test reads to say which kind of
   * exclusivity it measured: {@code isolation active: cpus C by MECHANISM (N residue kinds stay)}
   * or {@code isolation refused: WHY}.
   */
  static String isolationLine(Isolation i) {
    IsolationReport r = i.report();
    return i.isActive()
        ? "isolation active: cpus "
            + r.cpus()
            + " by "
            + r.mechanism()
            + " ("
            + r.residues().size()
            + " residue kinds stay)"
        : "isolation refused: " + r.refusal();
  }

  private static void stop(GatewayServer server, PrintWriter out) {
    server.close();
    GatewayMetrics m = server.metrics();
    out.println(
        "gateway stopped: "
            + m.get(GatewayCount.MESSAGES_RECEIVED)
            + " messages in, "
            + m.get(GatewayCount.MESSAGES_SENT)
            + " out, closes sent "
            + m.closesSent());
  }

  /**
   * The warning about {@code -XX:+ExitOnOutOfMemoryError} for {@code pin}: needed unless isolated
   * (else an OutOfMemoryError Netty catches leaves the gateway half-dead), harmful when isolated
   * (the JVM exits before the isolation can be put back).
   */
  static Optional<String> outOfMemoryWarning(PinMode pin, boolean exitsOnOutOfMemory) {
    if (pin == PinMode.ISOLATED && exitsOnOutOfMemory) {
      return Optional.of(
          "gateway: warning: -XX:+ExitOnOutOfMemoryError exits on an OutOfMemoryError before the"
              + " isolation can be put back: with --pin isolated leave it out (the gateway puts"
              + " it back, then halts), or run affinity-cli release after such an exit");
    }
    if (pin != PinMode.ISOLATED && !exitsOnOutOfMemory) {
      return Optional.of(
          "gateway: warning: -XX:+ExitOnOutOfMemoryError is not set: an OutOfMemoryError that"
              + " Netty catches would leave the gateway running half-dead");
    }
    return Optional.empty();
  }

  private static boolean exitsOnOutOfMemory() {
    return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .anyMatch(
            a ->
                a.equals("-XX:+ExitOnOutOfMemoryError")
                    || a.equals("-XX:+CrashOnOutOfMemoryError"));
  }
}
