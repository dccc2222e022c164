package io.github.affinitykit.bench.load;

import static io.github.affinitykit.core.cli.CommandLines.require;
import static io.github.affinitykit.core.cli.OptionTable.flag;
import static io.github.affinitykit.core.cli.OptionTable.key;
import static io.github.affinitykit.core.cli.OptionTable.option;

import io.github.affinitykit.core.cli.CommandLines;
import io.github.affinitykit.core.cli.KitVersion;
import io.github.affinitykit.core.cli.OptionTable;
import io.github.affinitykit.core.cli.OptionTable.Key;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The load test's command line: options into {@link LoadTestOptions}, then the run. Every bad value
 * (options, a pool in {@code AFFINITYKIT_POOL} the gateways would refuse, a host with one CPU) is
 * one line naming the option and the rule, exit status 2.
 *
 * <p>Thread safety: one instance per run.
 */
@Command(
    name = "LoadTest",
    mixinStandardHelpOptions = true,
    versionProvider = KitVersion.class,
    sortOptions = false,
    description =
        "The gateway load test: calibrates the rate at which the warmed unpinned gateway uses ~80%%"
            + " of its server CPUs (a search, then a fit through probes on fresh gateways), runs every scenario and two controls at it (a fresh gateway"
            + " per trial, warmed to steady state, then a capacity ramp), measures again every"
            + " trial that was not warm or was disturbed, prints the verdict; at most --budget"
            + " (10 minutes, --quick 2).",
    footerHeading = "%nSizing a run on a big server:%n",
    footer = {
      "  CPUs         From the host, named in the run's first line: housekeeping on a",
      "               core of the doctor's housekeeping CPUs, the server on cores of its",
      "               pool on one NUMA node, the client on as many other cores, on",
      "               another node when there is one. Give --server-cpus the CPUs your",
      "               gateway has in production (worker loops follow, --workers) and",
      "               leave the client as many again.",
      "  Connections  --connections at least 4 per worker loop, so each has work.",
      "  Rate         Calibrated to --target-cpu of the server's CPUs; --rate N fixes",
      "               the total (messages/s). The client must be able to offer it: a",
      "               calibration probe that 'did not keep up' says it cannot.",
      "  Duration     --duration 30s and --repeats 5 or more for a stable p99.9 and",
      "               tighter intervals; --quick for a 2-minute smoke run."
    })
final class LoadTestCommand implements Callable<Integer> {
  private static final Key<Path> JAR = key("--jar", Path.class);
  private static final Key<String> SCENARIOS = key("--scenarios", String.class);
  private static final Key<Integer> REPEATS = key("--repeats", Integer.class);
  private static final Key<Integer> CONNECTIONS = key("--connections", int.class);
  private static final Key<Integer> RATE = key("--rate", Integer.class);
  private static final Key<Double> TARGET_CPU = key("--target-cpu", double.class);
  private static final Key<Duration> SLO = key("--slo", Duration.class);
  private static final Key<Integer> CAPACITY_PROBES = key("--capacity-probes", Integer.class);
  private static final Key<Boolean> QUICK = key("--quick", boolean.class);
  private static final Key<Integer> WINDOW = key("--window", int.class);
  private static final Key<Integer> PAYLOAD = key("--payload", int.class);
  private static final Key<Duration> WARMUP = key("--warmup", Duration.class);
  private static final Key<Duration> DURATION = key("--duration", Duration.class);
  private static final Key<CpuSet> SERVER_CPUS = key("--server-cpus", CpuSet.class);
  private static final Key<CpuSet> CLIENT_CPUS = key("--client-cpus", CpuSet.class);
  private static final Key<Integer> WORKERS = key("--workers", Integer.class);
  private static final Key<Path> OUT = key("--out", Path.class);
  private static final Key<CpuSet> HOUSEKEEPING_CPUS = key("--housekeeping-cpus", CpuSet.class);
  private static final Key<Double> NOISE_THRESHOLD = key("--noise-threshold", double.class);
  private static final Key<Double> PRESSURE_THRESHOLD = key("--pressure-threshold", double.class);
  private static final Key<Integer> CLIENT_THREADS = key("--client-threads", Integer.class);
  private static final Key<Duration> BUDGET = key("--budget", Duration.class);
  private static final Key<Boolean> NO_CONTROLS = key("--no-controls", boolean.class);
  private static final Key<Boolean> ISOLATE = key("--isolate", boolean.class);

  /** The shortest warm-up bound: the steady-state criterion's windows. */
  private static final Duration MIN_WARMUP =
      Duration.ofNanos(SteadyState.WINDOW_NS * SteadyState.WINDOWS);

  @Spec private CommandSpec spec;

  @Mixin
  private final CommandSpec options =
      OptionTable.of(
          option(
              JAR,
              "PATH",
              "run this gateway jar (default: the gateway on this JVM's class path, from"
                  + " affinity-gateway)"),
          option(
              SCENARIOS,
              "LIST",
              "unpinned,taskset,pinned,exclusive,pinned-spin",
              "unpinned,taskset,pinned,exclusive,pinned-spin (default: all five)"),
          option(
              REPEATS,
              "N",
              "usable trials per arm, interleaved; a trial not warm or disturbed is measured"
                  + " again (default 3, and whole rounds more while the budget has room for one;"
                  + " quick 1)"),
          option(CONNECTIONS, "N", 50, "WebSocket connections (default ${DEFAULT-VALUE})"),
          option(
              RATE,
              "N",
              "messages/s in total, fixed rate; 0 = max throughput (default: calibrated, the rate at"
                  + " which the unpinned gateway uses --target-cpu of its CPUs)"),
          option(
              TARGET_CPU,
              "P",
              80.0,
              "calibrate to P%% of the server CPUs, unpinned (default ${DEFAULT-VALUE})"),
          option(
              SLO,
              "D",
              Duration.ofMillis(5),
              "p99 a rate must stay under to count as sustained: 5ms, 1s, PT0.01S (default 5ms)"),
          option(
              CAPACITY_PROBES,
              "N",
              "capacity probes per trial after its measurement, 0 = none (default 2, quick 1)"),
          flag(
              QUICK,
              "smoke mode: 1 trial per scenario of 1s recorded, measured once, no controls,"
                  + " a shorter calibration and ramp, budget 2m (too few trials for any claim)"),
          option(
              BUDGET,
              "D",
              "the whole run's time: no trial starts that would end after it; trials still"
                  + " missing are reported (default 10m, quick 2m)"),
          flag(
              NO_CONTROLS,
              "leave out the A/A and handicapped arms (faster; claims then go unchecked)"),
          flag(
              ISOLATE,
              "exclusive also isolates the server's worker CPUs from the rest of the machine at"
                  + " runtime (gateway --pin isolated: root; moves other processes, kernel threads"
                  + " and IRQs off them until each trial's gateway stops; never by default)"),
          option(
              WINDOW,
              "N",
              8,
              "in-flight messages per connection at max throughput (default ${DEFAULT-VALUE})"),
          option(PAYLOAD, "N", 128, "bytes per message, 16 to 1048576 (default ${DEFAULT-VALUE})"),
          option(
              WARMUP,
              "D",
              "the longest warm-up of a gateway before recording; recording starts as soon as its"
                  + " CPU per message is steady, >= 3s (default 15s, quick 6s)"),
          option(DURATION, "D", "recorded per trial, > 0 (default 3s, quick 1s)"),
          option(
              SERVER_CPUS,
              "LIST",
              "the server's CPUs (default: from the host: cores of the doctor's pool on one NUMA"
                  + " node, half of the cores; the run's first line says which)"),
          option(
              CLIENT_CPUS,
              "LIST",
              "the client's CPUs (default: from the host: as many cores as the server's, others,"
                  + " on another NUMA node when there is one)"),
          option(WORKERS, "N", "gateway worker loops (default: one per server CPU)"),
          option(OUT, "DIR", Path.of("target/loadtest"), "results (default ${DEFAULT-VALUE})"),
          option(
              HOUSEKEEPING_CPUS,
              "LIST",
              "CPUs for the pinned gateways' boss, GC, JIT (default: from the host: a core of the"
                  + " doctor's housekeeping CPUs, if server and client still get a core each;"
                  + " \"\" = none, i.e. every CPU but the server's)"),
          option(
              NOISE_THRESHOLD,
              "P",
              10.0,
              "flag trials where other processes used > P%% of a CPU (default 10)"),
          option(
              PRESSURE_THRESHOLD,
              "P",
              100.0,
              "also flag trials with CPU pressure above P%% (default 100: off)"),
          option(CLIENT_THREADS, "N", "client event-loop threads (default: one per client CPU)"));

  private final PrintStream console;
  private String rolesLine = ""; // where the server, client and housekeeping CPUs came from

  /** A command that prints progress and the report to {@code console}. */
  LoadTestCommand(PrintStream console) {
    this.console = Objects.requireNonNull(console, "console");
  }

  @Override
  public Integer call() throws IOException, InterruptedException {
    LoadTestOptions o = options();
    console.println(rolesLine);
    LoadReport.write(o, LoadTest.run(o, console), console);
    return 0;
  }

  /**
   * Checks the parsed options against each other and this host and returns them.
   *
   * @throws picocli.CommandLine.ParameterException naming the option, the value and the rule
   */
  LoadTestOptions options() {
    boolean quick = QUICK.value(options);
    int repeats = orElse(REPEATS.value(options), quick ? 1 : 3);
    int probes = orElse(CAPACITY_PROBES.value(options), quick ? 1 : 2);
    Duration duration = orElse(DURATION.value(options), Duration.ofSeconds(quick ? 1 : 3));
    Duration warmup = orElse(WARMUP.value(options), Duration.ofSeconds(quick ? 6 : 15));
    // 10 minutes: on a 2-CPU machine the calibration (9-10 probes on fresh gateways) takes about
    // 2 minutes and a trial about 18 s (warm-up, window, capacity probes): 21 trials and a
    // re-measurement or two need 9-10; 8 ran out with two arms one trial short (2026-11-28)
    Duration budget = orElse(BUDGET.value(options), Duration.ofMinutes(quick ? 2 : 10));
    Integer rate = RATE.value(options);
    checkNumbers(rate, repeats, probes);
    checkTimes(duration, warmup, budget);
    CpuRoles roles = roles();
    rolesLine = roles.explanation();
    CpuSet client = roles.client();
    CpuSet server = roles.server();
    int loops = orElse(WORKERS.value(options), server.size());
    int ioThreads = orElse(CLIENT_THREADS.value(options), client.size());
    require(spec, loops >= 1, WORKERS.name(), loops, "an integer >= 1");
    require(spec, ioThreads >= 1, CLIENT_THREADS.name(), ioThreads, "an integer >= 1");
    return CommandLines.configured(
        spec,
        () ->
            new LoadTestOptions(
                gateway(),
                Scenario.parseList(SCENARIOS.value(options)),
                repeats,
                new LoadConfig(
                    URI.create("ws://127.0.0.1:1/ws"),
                    CONNECTIONS.value(options),
                    PAYLOAD.value(options),
                    warmup,
                    duration,
                    rate != null ? rate : 0,
                    WINDOW.value(options),
                    ioThreads),
                LoadSearch.of(
                    quick,
                    rate == null,
                    TARGET_CPU.value(options),
                    SLO.value(options),
                    probes,
                    !NO_CONTROLS.value(options) && !quick,
                    REPEATS.value(options) == null, // a number given is the number run
                    budget),
                server,
                client,
                roles.housekeeping(),
                List.of("--workers", String.valueOf(loops)), // the gateway's option
                OUT.value(options),
                NOISE_THRESHOLD.value(options),
                PRESSURE_THRESHOLD.value(options),
                ISOLATE.value(options)));
  }

  /** The server, client and housekeeping CPUs: those given, the others from this host's model. */
  private CpuRoles roles() {
    HostCpus host = CommandLines.configured(spec, HostCpus::probe);
    CommandLines.configured(spec, host::pool); // the gateways read the same override
    CpuSet reachable = host.reachable();
    require(
        spec,
        reachable.size() >= 2,
        "CPUs",
        reachable,
        "at least 2: one for the client, one for the server");
    return CommandLines.configured(
        spec,
        () ->
            CpuRoles.of(
                host,
                Optional.ofNullable(SERVER_CPUS.value(options)),
                Optional.ofNullable(CLIENT_CPUS.value(options)),
                Optional.ofNullable(HOUSEKEEPING_CPUS.value(options))));
  }

  private void checkTimes(Duration duration, Duration warmup, Duration budget) {
    require(
        spec, duration.compareTo(Duration.ZERO) > 0, DURATION.name(), duration, "a duration > 0");
    require(
        spec,
        warmup.compareTo(MIN_WARMUP) >= 0,
        WARMUP.name(),
        warmup,
        "a duration >= 3s, the steady-state criterion's three 1 s windows");
    require(spec, budget.compareTo(Duration.ZERO) > 0, BUDGET.name(), budget, "a duration > 0");
  }

  private void checkNumbers(Integer rate, int repeats, int probes) {
    double targetCpu = TARGET_CPU.value(options);
    Duration slo = SLO.value(options);
    require(spec, repeats >= 1, REPEATS.name(), repeats, "an integer >= 1");
    int connections = CONNECTIONS.value(options);
    int window = WINDOW.value(options);
    int payload = PAYLOAD.value(options);
    double noise = NOISE_THRESHOLD.value(options);
    double pressure = PRESSURE_THRESHOLD.value(options);
    require(spec, connections >= 1, CONNECTIONS.name(), connections, "an integer >= 1");
    require(
        spec, rate == null || rate >= 0, RATE.name(), rate, "an integer >= 0 (0 = max throughput)");
    require(
        spec,
        targetCpu > 0 && targetCpu <= 100,
        TARGET_CPU.name(),
        targetCpu,
        "a number > 0 and <= 100");
    require(spec, slo.compareTo(Duration.ZERO) > 0, SLO.name(), slo, "a duration > 0");
    require(spec, probes >= 0, CAPACITY_PROBES.name(), probes, "an integer >= 0");
    require(spec, window >= 1, WINDOW.name(), window, "an integer >= 1");
    require(
        spec,
        payload >= 16 && payload <= 1 << 20,
        PAYLOAD.name(),
        payload,
        "an integer from 16 to 1048576");
    require(spec, noise >= 0, NOISE_THRESHOLD.name(), noise, "a number >= 0");
    require(spec, pressure >= 0, PRESSURE_THRESHOLD.name(), pressure, "a number >= 0");
  }

  private GatewayLaunch gateway() {
    Path jar = JAR.value(options);
    if (jar != null) {
      require(spec, Files.isRegularFile(jar), JAR.name(), jar, "an existing gateway jar file");
      return GatewayLaunch.jar(jar);
    }
    return CommandLines.configured(spec, GatewayLaunch::ownClassPath);
  }

  /** {@code value}, or {@code otherwise} when the option was not given and has no default. */
  private static <T> T orElse(T value, T otherwise) {
    return value != null ? value : otherwise;
  }
}
