package io.github.affinitykit.bench.load;

import io.github.affinitykit.core.AffinityBackend;
import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.cli.CommandLines;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import picocli.CommandLine;

/**
 * The gateway load test, the project's main job: for each scenario (unpinned, whole server under
 * taskset, pinned loops, pinned + rest of the JVM confined) a fresh gateway JVM, the same offered
 * load from a client pinned to other CPUs, interleaved repeats; then a table, JSON and HTML.
 *
 * <p>Run: {@code java -cp jmh-benchmarks/target/benchmarks.jar
 * io.github.affinitykit.bench.load.LoadTest [options]} ({@code --help} lists them).
 *
 * <p>Thread safety: a main program.
 */
public final class LoadTest {
  private LoadTest() {}

  /**
   * Runs the comparison and writes the reports; exits 0 when done, 2 after a bad configuration (one
   * line on the error stream), 1 if a trial failed.
   */
  public static void main(String[] args) {
    System.exit(execute(List.of(args), System.out, System.err));
  }

  /**
   * Runs the command line {@code args}, printing to {@code out} and {@code err}; the exit status.
   */
  static int execute(List<String> args, PrintStream out, PrintStream err) {
    return CommandLines.execute(new CommandLine(new LoadTestCommand(out)), args, out, err);
  }

  /** Runs every trial, interleaving scenarios, printing progress to {@code progress}. */
  public static List<Trial> run(LoadTestOptions o, PrintStream progress)
      throws IOException, InterruptedException {
    Files.createDirectories(o.out());
    Path log = o.out().resolve("gateway.log");
    Files.deleteIfExists(log);
    progress.printf(
        "load test: %s, server CPUs %s, client CPUs %s, housekeeping %s, %d connections, %s, ~%s%n",
        o.scenarios(),
        o.serverCpus(),
        o.clientCpus(),
        o.housekeepingCpus().isEmpty() ? "all but the server's" : o.housekeepingCpus().toString(),
        o.load().connections(),
        o.load().fixedRate() ? o.load().ratePerSecond() + " msg/s" : "max throughput",
        human(o.expectedTotal()));
    List<Trial> trials = new ArrayList<>();
    int total = o.repeats() * o.scenarios().size();
    long started = System.nanoTime();
    for (int r = 0; r < o.repeats(); r++) {
      for (int i = 0; i < o.scenarios().size(); i++) {
        Scenario s = o.scenarios().get((i + r) % o.scenarios().size()); // rotate the order
        int done = trials.size();
        progress.printf(
            "[%d/%d] %-9s repeat %d  (%s left)%n",
            done + 1,
            total,
            s.name().toLowerCase(java.util.Locale.ROOT),
            r + 1,
            human(remaining(o, started, done, total)));
        trials.add(trial(o, s, r, log));
      }
    }
    return trials;
  }

  private static Trial trial(LoadTestOptions o, Scenario s, int repeat, Path log)
      throws IOException, InterruptedException {
    int port = freePort();
    String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd =
        s.command(
            javaBin,
            o.gatewayJar().toString(),
            port,
            o.serverCpus(),
            o.housekeepingCpus(),
            Files.createDirectories(o.out().resolve("locks")).toAbsolutePath(),
            o.serverArgs());
    Files.writeString(
        log,
        "\n### " + s + " repeat " + repeat + ": " + String.join(" ", cmd) + "\n",
        java.nio.file.StandardOpenOption.CREATE,
        java.nio.file.StandardOpenOption.APPEND);
    try (GatewayProcess gw = GatewayProcess.start(cmd, port, log)) {
      LoadConfig c = o.load();
      LoadConfig load =
          new LoadConfig(
              URI.create("ws://127.0.0.1:" + port + "/ws"),
              c.connections(),
              c.payloadBytes(),
              c.warmup(),
              c.duration(),
              c.ratePerSecond(),
              c.window(),
              c.ioThreads());
      ServerStats[] edges = new ServerStats[2];
      LoadResult result =
          LoadClient.run(
              load,
              clientThreads(o.clientCpus()),
              new LoadClient.Window() {
                @Override
                public void opened() {
                  edges[0] = ServerStats.of(gw.pid());
                }

                @Override
                public void closed() {
                  edges[1] = ServerStats.of(gw.pid());
                }
              });
      return Trial.of(
          s,
          repeat,
          result,
          edges[0],
          edges[1],
          o.noiseThresholdPercent(),
          o.pressureThresholdPercent());
    }
  }

  /** Client threads confine themselves to the client CPUs, away from the server's. */
  static ThreadFactory clientThreads(CpuSet cpus) {
    AffinityBackend backend = AffinityBackend.detect();
    return r ->
        new Thread(
            () -> {
              if (backend.isSupported()) {
                backend.setAffinity(0, cpus);
              }
              r.run();
            },
            "load-client");
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static Duration remaining(LoadTestOptions o, long startedNs, int done, int total) {
    if (done == 0) {
      return o.expectedTotal();
    }
    long perTrial = (System.nanoTime() - startedNs) / done;
    return Duration.ofNanos(perTrial * (total - done));
  }

  static String human(Duration d) {
    long s = d.toSeconds();
    return s >= 60 ? (s / 60) + "m" + String.format("%02d", s % 60) + "s" : s + "s";
  }
}
