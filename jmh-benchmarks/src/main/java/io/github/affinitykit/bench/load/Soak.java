package io.github.affinitykit.bench.load;

import io.github.affinitykit.core.cli.CommandLines;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine;

/**
 * The soak: one gateway JVM held at a steady rate for a long time (the load test's client, fixed
 * rate) while short-lived clients come and go around it (ping, echo and close; room broadcasts) and
 * a stated share of them are hostile ({@link SoakClients.Hostile}); the gateway's resources are
 * sampled every few seconds and p99 taken every minute. It passes when no resource grows ({@link
 * SoakTrend}), no message of a well-behaved client is lost, and no pinned thread's mask moved.
 *
 * <p>Run: {@code java -cp jmh-benchmarks/target/benchmarks.jar
 * io.github.affinitykit.bench.load.Soak --duration 30m} ({@code --help} lists the options).
 *
 * <p>Thread safety: a main program's run; one call at a time.
 */
public final class Soak {
  private Soak() {}

  /**
   * Runs the soak of the command line {@code args} (see {@code --help}); exits 0 when it passed, 1
   * when it failed, 2 after a bad option (one line on the error stream).
   */
  public static void main(String[] args) {
    System.exit(
        CommandLines.execute(
            new CommandLine(new SoakCommand(System.out)), List.of(args), System.out, System.err));
  }

  /** Runs the soak of {@code o}, printing progress to {@code progress}; returns what it saw. */
  static SoakResult run(SoakOptions o, PrintStream progress)
      throws IOException, InterruptedException {
    Files.createDirectories(o.out());
    int port = GatewayDriver.freePort();
    List<String> cmd = new ArrayList<>(List.of(o.gateway().java()));
    cmd.add(
        "-Djava.io.tmpdir=" + Files.createDirectories(o.out().resolve("locks")).toAbsolutePath());
    cmd.addAll(List.of("-Xms" + o.heap(), "-Xmx" + o.heap(), "-XX:+AlwaysPreTouch"));
    cmd.addAll(o.gateway().mainArgs());
    cmd.addAll(List.of("--port", Integer.toString(port), "--pin", o.pin()));
    Path log = o.out().resolve("gateway.log");
    Files.writeString(log, "### soak: " + String.join(" ", cmd) + "\n");
    try (GatewayProcess gateway = GatewayProcess.start(cmd, port, log)) {
      return drive(o, gateway, port, progress);
    }
  }

  private static SoakResult drive(SoakOptions o, GatewayProcess gateway, int port, PrintStream p)
      throws InterruptedException {
    SoakClients clients = new SoakClients(port);
    SoakSampler sampler =
        new SoakSampler(gateway.pid(), port, o.sampleEvery().toMillis(), clients, p);
    ScheduledExecutorService churn = Executors.newScheduledThreadPool(2, daemon("churn"));
    ExecutorService hostiles = Executors.newFixedThreadPool(4, daemon("hostile"));
    AtomicLong turn = new AtomicLong();
    AtomicLong hostileTurn = new AtomicLong();
    churn.scheduleAtFixedRate(
        () -> cycle(clients, hostiles, o.hostilePercent(), turn.getAndIncrement(), hostileTurn),
        0,
        Math.round(1e6 / o.churnPerSecond()),
        TimeUnit.MICROSECONDS);
    LoadResult steady;
    try {
      LoadConfig c =
          new LoadConfig(
              URI.create("ws://127.0.0.1:" + port + "/ws"),
              o.connections(),
              64,
              o.warmup(),
              o.duration(),
              o.rate(),
              1,
              1);
      steady = LoadClient.run(c, daemon("load"), sampler.window());
    } finally {
      churn.shutdownNow();
      hostiles.shutdownNow();
      sampler.close();
      if (!(churn.awaitTermination(30, TimeUnit.SECONDS)
          & hostiles.awaitTermination(30, TimeUnit.SECONDS))) {
        p.println("soak: a client thread did not stop within 30 s");
      }
    }
    return SoakResult.of(
        o, steady, clients, sampler.samples(), sampler.p99PerMinuteUs(), sampler.error());
  }

  /**
   * Turn {@code n}: hostile when {@code n % 100} falls in the hostile share (the kinds in turn, by
   * {@code hostileTurn}), else a well-behaved cycle, a room pair every fourth turn.
   */
  private static void cycle(
      SoakClients c, ExecutorService hostiles, int hostilePercent, long n, AtomicLong hostileTurn) {
    if (n % 100 < hostilePercent) {
      SoakClients.Hostile[] kinds = SoakClients.Hostile.values();
      SoakClients.Hostile h = kinds[(int) (hostileTurn.getAndIncrement() % kinds.length)];
      hostiles.execute(() -> c.hostileCycle(h));
    } else if (n % 4 == 3) {
      c.roomCycle();
    } else {
      c.echoCycle();
    }
  }

  /** Daemon threads named {@code soak-<name>-<n>}: a soak that fails never keeps the JVM up. */
  static java.util.concurrent.ThreadFactory daemon(String name) {
    AtomicLong n = new AtomicLong();
    return r -> {
      Thread t = new Thread(r, "soak-" + name + "-" + n.getAndIncrement());
      t.setDaemon(true);
      return t;
    };
  }

  /** The default warm-up before recording. */
  static final Duration WARMUP = Duration.ofSeconds(15);
}
