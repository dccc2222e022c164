package io.github.affinitykit.bench.load;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;

/**
 * One gateway JVM of a scenario and the loads offered to it: the measured load with its idle
 * window, the capacity probes after it, the calibration probes.
 *
 * <p>Thread safety: one controlling thread.
 */
final class GatewayDriver implements AutoCloseable {
  private final LoadTestOptions o;
  private final GatewayProcess gateway;
  private final URI uri;

  private GatewayDriver(LoadTestOptions o, GatewayProcess gateway, int port) {
    this.o = o;
    this.gateway = gateway;
    this.uri = URI.create("ws://127.0.0.1:" + port + "/ws");
  }

  /** Starts the gateway of {@code s}, its command and output appended to {@code log}. */
  static GatewayDriver start(LoadTestOptions o, Scenario s, String title, Path log)
      throws IOException {
    int port = freePort();
    List<String> cmd =
        s.command(
            o.gateway(),
            port,
            o.serverCpus(),
            o.housekeepingCpus(),
            Files.createDirectories(o.out().resolve("locks")).toAbsolutePath(),
            o.serverArgs());
    Files.writeString(
        log,
        "\n### " + title + ": " + String.join(" ", cmd) + "\n",
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
    return new GatewayDriver(o, GatewayProcess.start(cmd, port, log), port);
  }

  /** Runs a trial: the measured load at {@code rate}, its idle window, then the capacity ramp. */
  Trial trial(Scenario s, int repeat, long rate) throws InterruptedException {
    LoadConfig c = o.load();
    Measurement m = offer(rate, c.warmup(), c.duration(), o.search().idleWindow());
    CapacityRamp.Result capacity;
    if (rate == 0) { // maximum throughput: what it achieved is its capacity
      long achieved = Math.round(m.load().messagesPerSecond());
      capacity = new CapacityRamp.Result(achieved, false, List.of());
    } else {
      capacity =
          new CapacityRamp(LoadSearch.RAMP_FACTOR, o.search().capacityProbes())
              .search(new CapacityRamp.Step(rate, sustained(m.load())), this::sustains);
    }
    return Trial.of(
        s, repeat, m, capacity, o.noiseThresholdPercent(), o.pressureThresholdPercent());
  }

  /**
   * A calibration probe: the server's CPU% at {@code rate}, or {@code +Infinity} if it did not keep
   * up (lost messages, or echoed less than {@link #KEPT_UP} of the offered rate: CPU% says little
   * about a server that falls behind). Latency is the capacity ramp's criterion, not this one's: a
   * short probe's p99 carries the JIT's and the collector's first visits.
   */
  double cpuPercentAt(long rate) throws InterruptedException {
    Duration d = o.search().calibrationProbe();
    Measurement m = offer(rate, d.dividedBy(2), d, Duration.ZERO);
    return keptUp(m.load(), rate) ? m.cpuPercent() : Double.POSITIVE_INFINITY;
  }

  /** The share of the offered rate a calibration probe must echo to count as kept up. */
  static final double KEPT_UP = 0.95;

  static boolean keptUp(LoadResult r, long rate) {
    return r.lost() == 0
        && r.errors() == 0
        && r.received() > 0
        && r.messagesPerSecond() >= KEPT_UP * rate;
  }

  /** A capacity probe: whether the server sustains {@code rate}. */
  boolean sustains(long rate) throws InterruptedException {
    Duration d = o.search().capacityProbe();
    return sustained(offer(rate, d.dividedBy(2), d, Duration.ZERO).load());
  }

  private boolean sustained(LoadResult r) {
    return r.lost() == 0
        && r.errors() == 0
        && r.received() > 0
        && r.latencyUs(99) * 1_000 <= o.search().slo().toNanos();
  }

  /** Offers {@code rate} (0 = maximum) and takes the server's counters around the windows. */
  Measurement offer(long rate, Duration warmup, Duration duration, Duration idle)
      throws InterruptedException {
    LoadConfig c = o.load();
    LoadConfig load =
        new LoadConfig(
            uri,
            c.connections(),
            c.payloadBytes(),
            warmup,
            duration,
            rate,
            c.window(),
            c.ioThreads());
    long pid = gateway.pid();
    ServerStats[] edges = new ServerStats[4];
    LoadResult result =
        LoadClient.run(
            load,
            LoadTest.clientThreads(o.clientCpus()),
            new LoadClient.Window() {
              @Override
              public void opened() {
                edges[0] = ServerStats.of(pid);
              }

              @Override
              public void closed() {
                edges[1] = ServerStats.of(pid);
              }

              @Override
              public void drained() {
                if (!idle.isZero()) {
                  edges[2] = ServerStats.of(pid);
                  LoadClient.awaitNanos(idle.toNanos());
                  edges[3] = ServerStats.of(pid);
                }
              }
            });
    double idlePercent =
        edges[2] == null ? Double.NaN : Measurement.percentOfOneCpu(edges[2], edges[3]);
    return new Measurement(result, edges[0], edges[1], idlePercent);
  }

  @Override
  public void close() {
    gateway.close();
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
