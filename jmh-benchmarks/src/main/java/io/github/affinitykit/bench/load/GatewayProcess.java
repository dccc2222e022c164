package io.github.affinitykit.bench.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The gateway as a child JVM: started with a scenario's command, ready when {@code /health} answers
 * 200, stopped with SIGTERM (its graceful shutdown) and, failing that, killed. Its output goes to a
 * log file.
 *
 * <p>Thread safety: one controlling thread.
 */
final class GatewayProcess implements AutoCloseable {
  private final Process process;

  /** Start-up budget: seconds here, ~40 s in a TCG guest of the kernel tests. */
  private static final long HEALTHY_WITHIN_S = 120;

  private static final int TAIL_LINES = 15;

  private final int port;

  private GatewayProcess(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  static GatewayProcess start(List<String> command, int port, Path log) throws IOException {
    Process p =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    GatewayProcess g = new GatewayProcess(p, port);
    g.awaitHealthy(TimeUnit.SECONDS.toNanos(HEALTHY_WITHIN_S), log);
    return g;
  }

  /**
   * Whether the gateway {@code gateway} has the option {@code option}, from its generated {@code
   * --help}.
   */
  static boolean hasOption(GatewayLaunch gateway, String option) throws IOException {
    List<String> cmd = new java.util.ArrayList<>(List.of(gateway.java()));
    cmd.addAll(gateway.mainArgs());
    cmd.add("--help");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    try {
      String help = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(HEALTHY_WITHIN_S, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
      return help.contains(option + "=") || help.contains(option + " ");
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      return false;
    }
  }

  long pid() {
    return process.pid();
  }

  private void awaitHealthy(long timeoutNs, Path log) throws IOException {
    long until = System.nanoTime() + timeoutNs;
    while (System.nanoTime() < until) {
      if (!process.isAlive()) {
        throw new IOException(
            "gateway exited with " + process.exitValue() + "; see " + log + tail(log));
      }
      try {
        HttpURLConnection c =
            (HttpURLConnection)
                URI.create("http://127.0.0.1:" + port + "/health").toURL().openConnection();
        c.setConnectTimeout(500);
        c.setReadTimeout(500);
        if (c.getResponseCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
    }
    close();
    throw new IOException(
        "gateway not healthy on port "
            + port
            + " within "
            + HEALTHY_WITHIN_S
            + " s; see "
            + log
            + tail(log));
  }

  /** The last lines of the gateway's log, to say why where the log itself is gone (a guest). */
  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return ", its last lines:\n  "
          + String.join(
              "\n  ", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
    } catch (IOException | UncheckedIOException e) {
      return " (unreadable: " + e.getMessage() + ")";
    }
  }

  /** SIGTERM, wait 10 s, then SIGKILL. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
