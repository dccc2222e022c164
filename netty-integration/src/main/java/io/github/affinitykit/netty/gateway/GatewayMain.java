package io.github.affinitykit.netty.gateway;

import io.github.affinitykit.core.AffinityKit;
import java.io.PrintStream;
import java.util.Arrays;

/**
 * Runs the gateway: {@code java -cp <gateway jar> io.github.affinitykit.netty.gateway.GatewayMain
 * --port 8080 --pin exclusive}. Prints {@code gateway listening on HOST:PORT} once bound (scripts
 * wait for that line), then where every loop runs. SIGTERM (or Ctrl-C) stops it gracefully: 1001 to
 * every WebSocket, drain, free the CPUs. Exit status 2 for a bad command line.
 *
 * <p>Thread safety: a program entry point.
 */
public final class GatewayMain {
  private GatewayMain() {}

  /**
   * Parses {@code args} ({@link GatewayArgs#USAGE}), starts the gateway and blocks until it has
   * stopped.
   *
   * @throws InterruptedException if the main thread is interrupted while waiting
   */
  public static void main(String[] args) throws InterruptedException {
    PrintStream out = System.out;
    if (Arrays.asList(args).contains("--help")) {
      out.println(GatewayArgs.USAGE);
      return;
    }
    GatewayConfig config;
    try {
      config = GatewayArgs.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("gateway: " + e.getMessage());
      System.err.println(GatewayArgs.USAGE);
      System.exit(2);
      return;
    }
    AffinityKit kit = AffinityKit.shared(); // probe the host before anything is pinned
    GatewayServer server = GatewayServer.start(config, kit);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.close();
                  GatewayMetrics m = server.metrics();
                  out.println(
                      "gateway stopped: "
                          + m.messagesIn()
                          + " messages in, "
                          + m.messagesOut()
                          + " out, closes sent "
                          + m.closesSent());
                },
                "gateway-shutdown"));
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
    server.awaitStopped();
  }
}
