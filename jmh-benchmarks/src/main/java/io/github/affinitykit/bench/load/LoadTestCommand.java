package io.github.affinitykit.bench.load;

import static io.github.affinitykit.core.cli.CommandLines.require;

import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.cli.CommandLines;
import io.github.affinitykit.core.cli.KitVersion;
import io.github.affinitykit.core.host.HostCpus;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
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
        "The gateway load test: calibrates the rate at which the unpinned gateway uses ~80%% of its"
            + " server CPUs, runs every scenario at it with a capacity ramp, prints the verdict;"
            + " the defaults take about 6 minutes on 2 CPUs, --quick about 2.")
final class LoadTestCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Option(
      names = "--jar",
      paramLabel = "PATH",
      description =
          "run this gateway jar (default: the gateway on this JVM's class path, from"
              + " netty-integration)")
  private Path jar;

  @Option(
      names = "--scenarios",
      paramLabel = "LIST",
      description = "unpinned,taskset,pinned,exclusive,pinned-spin (default: all five)")
  private String scenarios = "unpinned,taskset,pinned,exclusive,pinned-spin";

  @Option(
      names = "--repeats",
      paramLabel = "N",
      description = "trials per scenario, interleaved (default 3, quick 2)")
  private Integer repeats;

  @Option(
      names = "--connections",
      paramLabel = "N",
      description = "WebSocket connections (default ${DEFAULT-VALUE})")
  private int connections = 50;

  @Option(
      names = "--rate",
      paramLabel = "N",
      description =
          "messages/s in total, fixed rate; 0 = max throughput (default: calibrated, the rate at"
              + " which the unpinned gateway uses --target-cpu of its CPUs)")
  private Integer rate;

  @Option(
      names = "--target-cpu",
      paramLabel = "P",
      description = "calibrate to P%% of the server CPUs, unpinned (default ${DEFAULT-VALUE})")
  private double targetCpu = 80;

  @Option(
      names = "--slo",
      paramLabel = "D",
      description =
          "p99 a rate must stay under to count as sustained: 5ms, 1s, PT0.01S (default 5ms)")
  private Duration slo = Duration.ofMillis(5);

  @Option(
      names = "--capacity-probes",
      paramLabel = "N",
      description =
          "capacity probes per trial after its measurement, 0 = none (default 3, quick 2)")
  private Integer capacityProbes;

  @Option(
      names = "--quick",
      description =
          "short mode: 2 repeats of 1s + 2s, a shorter calibration and ramp (about 2 minutes)")
  private boolean quick;

  @Option(
      names = "--window",
      paramLabel = "N",
      description =
          "in-flight messages per connection at max throughput (default ${DEFAULT-VALUE})")
  private int window = 8;

  @Option(
      names = "--payload",
      paramLabel = "N",
      description = "bytes per message, 16 to 1048576 (default ${DEFAULT-VALUE})")
  private int payload = 128;

  @Option(
      names = "--warmup",
      paramLabel = "D",
      description = "per trial, before recording: 500ms, 5s, 2m, PT5S (default 2s, quick 1s)")
  private Duration warmup;

  @Option(
      names = "--duration",
      paramLabel = "D",
      description = "recorded per trial, > 0 (default 6s, quick 2s)")
  private Duration duration;

  @Option(
      names = "--server-cpus",
      paramLabel = "LIST",
      description = "the server's CPUs (default: all but the client's)")
  private CpuSet serverCpus;

  @Option(
      names = "--client-cpus",
      paramLabel = "LIST",
      description = "the client's CPUs (default: the first quarter of the CPUs, at least one)")
  private CpuSet clientCpus;

  @Option(
      names = "--workers",
      paramLabel = "N",
      description = "gateway worker loops (default: one per server CPU)")
  private Integer workers;

  @Option(names = "--out", paramLabel = "DIR", description = "results (default ${DEFAULT-VALUE})")
  private Path out = Path.of("target/loadtest");

  @Option(
      names = "--housekeeping-cpus",
      paramLabel = "LIST",
      description =
          "CPUs for the pinned gateways' boss, GC, JIT (default: none, i.e. every CPU but the server's, the client's included)")
  private CpuSet housekeepingCpus = CpuSet.empty();

  @Option(
      names = "--noise-threshold",
      paramLabel = "P",
      description = "flag trials where other processes used > P%% of a CPU (default 10)")
  private double noiseThreshold = 10;

  @Option(
      names = "--pressure-threshold",
      paramLabel = "P",
      description = "also flag trials with CPU pressure above P%% (default 100: off)")
  private double pressureThreshold = 100;

  @Option(
      names = "--client-threads",
      paramLabel = "N",
      description = "client event-loop threads (default: one per client CPU)")
  private Integer clientThreads;

  private final PrintStream console;

  /** A command that prints progress and the report to {@code console}. */
  LoadTestCommand(PrintStream console) {
    this.console = Objects.requireNonNull(console, "console");
  }

  @Override
  public Integer call() throws IOException, InterruptedException {
    LoadTestOptions o = options();
    LoadReport.write(o, LoadTest.run(o, console), console);
    return 0;
  }

  private void applyDefaults() {
    repeats = repeats != null ? repeats : quick ? 2 : 3;
    warmup = warmup != null ? warmup : Duration.ofSeconds(quick ? 1 : 2);
    duration = duration != null ? duration : Duration.ofSeconds(quick ? 2 : 6);
    capacityProbes = capacityProbes != null ? capacityProbes : quick ? 2 : 3;
  }

  /**
   * Checks the parsed options against each other and this host and returns them.
   *
   * @throws picocli.CommandLine.ParameterException naming the option, the value and the rule
   */
  LoadTestOptions options() {
    applyDefaults();
    checkNumbers();
    HostCpus host = CommandLines.configured(spec, HostCpus::probe);
    CommandLines.configured(spec, host::pool); // the gateways read the same override
    CpuSet reachable = host.reachable();
    require(
        spec,
        reachable.size() >= 2,
        "CPUs",
        reachable,
        "at least 2: one for the client, one for the server");
    CpuSet client =
        clientCpus != null ? clientCpus : firstN(reachable, Math.max(1, reachable.size() / 4));
    CpuSet server = serverCpus != null ? serverCpus : reachable.minus(client);
    int loops = workers != null ? workers : server.size();
    int ioThreads = clientThreads != null ? clientThreads : client.size();
    require(spec, loops >= 1, "--workers", loops, "an integer >= 1");
    require(spec, ioThreads >= 1, "--client-threads", ioThreads, "an integer >= 1");
    return CommandLines.configured(
        spec,
        () ->
            new LoadTestOptions(
                gateway(),
                Scenario.parseList(scenarios),
                repeats,
                new LoadConfig(
                    URI.create("ws://127.0.0.1:1/ws"),
                    connections,
                    payload,
                    warmup,
                    duration,
                    rate != null ? rate : 0,
                    window,
                    ioThreads),
                LoadSearch.of(quick, rate == null, targetCpu, slo, capacityProbes),
                server,
                client,
                housekeepingCpus,
                List.of("--workers", String.valueOf(loops)),
                out,
                noiseThreshold,
                pressureThreshold));
  }

  private void checkNumbers() {
    require(spec, repeats >= 1, "--repeats", repeats, "an integer >= 1");
    require(spec, connections >= 1, "--connections", connections, "an integer >= 1");
    require(
        spec, rate == null || rate >= 0, "--rate", rate, "an integer >= 0 (0 = max throughput)");
    require(
        spec,
        targetCpu > 0 && targetCpu <= 100,
        "--target-cpu",
        targetCpu,
        "a number > 0 and <= 100");
    require(spec, slo.compareTo(Duration.ZERO) > 0, "--slo", slo, "a duration > 0");
    require(spec, capacityProbes >= 0, "--capacity-probes", capacityProbes, "an integer >= 0");
    require(spec, window >= 1, "--window", window, "an integer >= 1");
    require(
        spec,
        payload >= 16 && payload <= 1 << 20,
        "--payload",
        payload,
        "an integer from 16 to 1048576");
    require(spec, duration.compareTo(Duration.ZERO) > 0, "--duration", duration, "a duration > 0");
    require(spec, noiseThreshold >= 0, "--noise-threshold", noiseThreshold, "a number >= 0");
    require(
        spec, pressureThreshold >= 0, "--pressure-threshold", pressureThreshold, "a number >= 0");
  }

  private GatewayLaunch gateway() {
    if (jar != null) {
      require(spec, Files.isRegularFile(jar), "--jar", jar, "an existing gateway jar file");
      return GatewayLaunch.jar(jar);
    }
    return CommandLines.configured(spec, GatewayLaunch::ownClassPath);
  }

  private static CpuSet firstN(CpuSet cpus, int n) {
    return CpuSet.of(Arrays.copyOf(cpus.toArray(), n));
  }
}
