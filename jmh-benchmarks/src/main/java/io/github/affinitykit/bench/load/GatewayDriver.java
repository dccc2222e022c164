package io.github.affinitykit.bench.load;

import io.github.affinitykit.audit.TaskReader;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * One gateway JVM of an arm and the loads offered to it: a calibration probe or a trial's measured
 * load, each after a warm-up to {@link SteadyState}; the idle window after a trial's load; the
 * capacity probes after it, which only settle (the JVM is warm by then).
 *
 * <p>Thread safety: one controlling thread.
 */
final class GatewayDriver implements AutoCloseable {
  /** The share of the offered rate a calibration probe must echo to count as kept up. */
  static final double KEPT_UP = 0.95;

  /**
   * How long a capacity probe waits for its last echoes: a rate whose echoes take longer was not
   * sustained under any SLO this test takes.
   */
  static final long PROBE_DRAIN_NS = 1_000_000_000L;

  private final LoadTestOptions o;
  private final GatewayProcess gateway;
  private final URI uri;

  private GatewayDriver(LoadTestOptions o, GatewayProcess gateway, int port) {
    this.o = o;
    this.gateway = gateway;
    this.uri = URI.create("ws://127.0.0.1:" + port + "/ws");
  }

  /**
   * Starts the gateway of {@code s} (carrying {@code handicap} if it is the handicapped arm), its
   * command and output appended to {@code log}.
   */
  static GatewayDriver start(
      LoadTestOptions o, Scenario s, String title, Path log, Handicap handicap) throws IOException {
    int port = freePort();
    List<String> cmd =
        s.command(
            o.gateway(),
            port,
            o.serverCpus(),
            o.housekeepingCpus(),
            Files.createDirectories(o.out().resolve("locks")).toAbsolutePath(),
            handicap,
            o.isolate(),
            o.serverArgs());
    Files.writeString(
        log,
        "\n### " + title + ": " + String.join(" ", cmd) + "\n",
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
    return new GatewayDriver(o, GatewayProcess.start(cmd, port, log), port);
  }

  /**
   * Runs a trial: warm-up to steady state, the measured load at {@code rate}, its idle window, then
   * the capacity ramp, whose probes stop where the next would end after {@code deadlineNs} (the
   * run's budget; {@link System#nanoTime()}); where p99 at {@code rate} is over the SLO, its
   * descent starts at {@code capacityFrom} if that is lower (0: at half the rate).
   */
  Trial trial(Scenario s, int attempt, long rate, long capacityFrom, long deadlineNs)
      throws InterruptedException {
    LoadConfig c = o.load();
    Measurement m = offer(rate, true, c.warmup(), c.duration(), o.search().idleWindow());
    CapacityRamp.Result capacity;
    if (rate == 0) { // maximum throughput: what it achieved is its capacity
      long achieved = Math.round(m.load().messagesPerSecond());
      capacity = new CapacityRamp.Result(achieved, false, List.of());
    } else {
      long probeNs = o.search().capacityProbeTime().toNanos() + PROBE_DRAIN_NS;
      capacity =
          new CapacityRamp(LoadSearch.RAMP_FACTOR, o.search().capacityProbes())
              .search(
                  new CapacityRamp.Step(rate, sustained(m.load())),
                  capacityFrom,
                  this::sustains,
                  () -> System.nanoTime() + probeNs <= deadlineNs);
    }
    return Trial.of(
        s, attempt, rate, m, capacity, o.noiseThresholdPercent(), o.pressureThresholdPercent());
  }

  /**
   * A calibration probe, measured as a trial is: a warm-up to steady state at {@code rate}, then a
   * recorded window as long as a trial's, and the server's CPU% over it; {@code +Infinity} if it
   * did not keep up (lost messages, or echoed less than {@link #KEPT_UP} of the offered rate: CPU%
   * says little about a server that falls behind). Not the warm-up's windows: a JVM that has just
   * met the criterion still compiles, and its compiler threads' CPU would read a higher CPU% than
   * the trials then measure at the same rate.
   */
  Calibration.Point probe(long rate) throws InterruptedException {
    Measurement m = offer(rate, true, o.load().warmup(), o.load().duration(), Duration.ZERO);
    Warmup w = m.warmup();
    boolean kept = keptUp(m.load(), rate) && w.messagesPerSecond() >= KEPT_UP * rate;
    return new Calibration.Point(
        rate,
        kept ? m.cpuPercent() : Double.POSITIVE_INFINITY,
        w.steady(),
        w.tookNs(),
        m.othersCpuPercent(),
        m.clientCpuPercent(),
        m.switchesPerMessage());
  }

  static boolean keptUp(LoadResult r, long rate) {
    return r.lost() == 0
        && r.errors() == 0
        && r.received() > 0
        && r.messagesPerSecond() >= KEPT_UP * rate;
  }

  /** A capacity probe: whether the server sustains {@code rate} after settling half the probe. */
  boolean sustains(long rate) throws InterruptedException {
    Duration d = o.search().capacityProbe();
    return sustained(offer(rate, false, d.dividedBy(2), d, Duration.ZERO).load());
  }

  private boolean sustained(LoadResult r) {
    return r.lost() == 0
        && r.errors() == 0
        && r.received() > 0
        && r.latencyUs(99) * 1_000 <= o.search().slo().toNanos();
  }

  /**
   * Offers {@code rate} (0 = maximum): a warm-up (to steady state within {@code warmup} if {@code
   * steady}, else exactly {@code warmup}), the recorded window with the server's counters at its
   * edges, then the idle window.
   */
  Measurement offer(long rate, boolean steady, Duration warmup, Duration duration, Duration idle)
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
    Warmup[] warm = new Warmup[1];
    LoadResult result =
        LoadClient.run(
            load,
            LoadTest.clientThreads(o.clientCpus()),
            new LoadClient.Window() {
              @Override
              public void warmUp(Duration limit, LongSupplier echoed) throws InterruptedException {
                if (steady) {
                  warm[0] = toSteadyState(pid, limit, echoed);
                } else {
                  LoadClient.awaitNanos(limit.toNanos());
                  warm[0] = Warmup.fixed(limit.toNanos());
                }
              }

              @Override
              public long drainNs() {
                return steady ? LoadClient.DRAIN_NS : PROBE_DRAIN_NS;
              }

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
    return new Measurement(result, warm[0], edges[0], edges[1], idlePercent);
  }

  /**
   * Samples the server's CPU time and the echoes every {@link SteadyState#WINDOW_NS} until the
   * criterion holds, or {@code limit} holds no more whole windows.
   */
  static Warmup toSteadyState(long pid, Duration limit, LongSupplier echoed) {
    TaskReader proc = TaskReader.live();
    SteadyState s = new SteadyState();
    long most = limit.toNanos() / SteadyState.WINDOW_NS;
    long began = System.nanoTime();
    long t0 = began;
    long cpu0 = proc.processCpuNs((int) pid).orElse(0);
    long echoed0 = echoed.getAsLong();
    while (s.windows() < most && !s.steady()) {
      LoadClient.awaitNanos(t0 + SteadyState.WINDOW_NS - System.nanoTime());
      long t1 = System.nanoTime();
      long cpu1 = proc.processCpuNs((int) pid).orElse(cpu0);
      long echoed1 = echoed.getAsLong();
      s.add(new SteadyState.Window(t1 - t0, cpu1 - cpu0, echoed1 - echoed0));
      t0 = t1;
      cpu0 = cpu1;
      echoed0 = echoed1;
    }
    return Warmup.of(System.nanoTime() - began, s);
  }

  @Override
  public void close() {
    gateway.close();
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
