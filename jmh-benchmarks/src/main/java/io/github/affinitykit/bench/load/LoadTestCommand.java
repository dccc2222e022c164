package io.github.affinitykit.bench.load;

import static io.github.affinitykit.core.cli.CommandLines.require;
import static io.github.affinitykit.core.cli.OptionTable.flag;
import static io.github.affinitykit.core.cli.OptionTable.option;

import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.cli.CommandLines;
import io.github.affinitykit.core.cli.KitVersion;
import io.github.affinitykit.core.cli.OptionTable;
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
        "The gateway load test: calibrates the rate at which the unpinned gateway uses ~80%% of its"
            + " server CPUs, runs every scenario at it with a capacity ramp, prints the verdict;"
            + " the defaults take about 6 minutes on 2 CPUs, --quick about 2.")
final class LoadTestCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Mixin
  private final CommandSpec options =
      OptionTable.of(
          option(
              "--jar",
              "PATH",
              Path.class,
              "run this gateway jar (default: the gateway on this JVM's class path, from"
                  + " netty-integration)"),
          option(
              "--scenarios",
              "LIST",
              String.class,
              "unpinned,taskset,pinned,exclusive,pinned-spin",
              "unpinned,taskset,pinned,exclusive,pinned-spin (default: all five)"),
          option(
              "--repeats",
              "N",
              Integer.class,
              "trials per scenario, interleaved (default 3, quick 2)"),
          option(
              "--connections",
              "N",
              int.class,
              50,
              "WebSocket connections (default ${DEFAULT-VALUE})"),
          option(
              "--rate",
              "N",
              Integer.class,
              "messages/s in total, fixed rate; 0 = max throughput (default: calibrated, the rate at"
                  + " which the unpinned gateway uses --target-cpu of its CPUs)"),
          option(
              "--target-cpu",
              "P",
              double.class,
              80.0,
              "calibrate to P%% of the server CPUs, unpinned (default ${DEFAULT-VALUE})"),
          option(
              "--slo",
              "D",
              Duration.class,
              Duration.ofMillis(5),
              "p99 a rate must stay under to count as sustained: 5ms, 1s, PT0.01S (default 5ms)"),
          option(
              "--capacity-probes",
              "N",
              Integer.class,
              "capacity probes per trial after its measurement, 0 = none (default 3, quick 2)"),
          flag(
              "--quick",
              "short mode: 2 repeats of 1s + 2s, a shorter calibration and ramp (about 2 minutes)"),
          option(
              "--window",
              "N",
              int.class,
              8,
              "in-flight messages per connection at max throughput (default ${DEFAULT-VALUE})"),
          option(
              "--payload",
              "N",
              int.class,
              128,
              "bytes per message, 16 to 1048576 (default ${DEFAULT-VALUE})"),
          option(
              "--warmup",
              "D",
              Duration.class,
              "per trial, before recording: 500ms, 5s, 2m, PT5S (default 2s, quick 1s)"),
          option(
              "--duration", "D", Duration.class, "recorded per trial, > 0 (default 6s, quick 2s)"),
          option(
              "--server-cpus",
              "LIST",
              CpuSet.class,
              "the server's CPUs (default: all but the client's)"),
          option(
              "--client-cpus",
              "LIST",
              CpuSet.class,
              "the client's CPUs (default: the first quarter of the CPUs, at least one)"),
          option(
              "--workers",
              "N",
              Integer.class,
              "gateway worker loops (default: one per server CPU)"),
          option(
              "--out",
              "DIR",
              Path.class,
              Path.of("target/loadtest"),
              "results (default ${DEFAULT-VALUE})"),
          option(
              "--housekeeping-cpus",
              "LIST",
              CpuSet.class,
              CpuSet.empty(),
              "CPUs for the pinned gateways' boss, GC, JIT (default: none, i.e. every CPU but the server's, the client's included)"),
          option(
              "--noise-threshold",
              "P",
              double.class,
              10.0,
              "flag trials where other processes used > P%% of a CPU (default 10)"),
          option(
              "--pressure-threshold",
              "P",
              double.class,
              100.0,
              "also flag trials with CPU pressure above P%% (default 100: off)"),
          option(
              "--client-threads",
              "N",
              Integer.class,
              "client event-loop threads (default: one per client CPU)"));

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

  /**
   * Checks the parsed options against each other and this host and returns them.
   *
   * @throws picocli.CommandLine.ParameterException naming the option, the value and the rule
   */
  LoadTestOptions options() {
    boolean quick = value("--quick");
    int repeats = orElse(value("--repeats"), quick ? 2 : 3);
    int probes = orElse(value("--capacity-probes"), quick ? 2 : 3);
    Duration duration = orElse(value("--duration"), Duration.ofSeconds(quick ? 2 : 6));
    Integer rate = value("--rate");
    double targetCpu = value("--target-cpu");
    Duration slo = value("--slo");
    require(spec, repeats >= 1, "--repeats", repeats, "an integer >= 1");
    checkNumbers(rate, targetCpu, slo, probes, duration);
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
        orElse(value("--client-cpus"), firstN(reachable, Math.max(1, reachable.size() / 4)));
    CpuSet server = orElse(value("--server-cpus"), reachable.minus(client));
    int loops = orElse(value("--workers"), server.size());
    int ioThreads = orElse(value("--client-threads"), client.size());
    require(spec, loops >= 1, "--workers", loops, "an integer >= 1");
    require(spec, ioThreads >= 1, "--client-threads", ioThreads, "an integer >= 1");
    return CommandLines.configured(
        spec,
        () ->
            new LoadTestOptions(
                gateway(),
                Scenario.parseList(value("--scenarios")),
                repeats,
                new LoadConfig(
                    URI.create("ws://127.0.0.1:1/ws"),
                    value("--connections"),
                    value("--payload"),
                    orElse(value("--warmup"), Duration.ofSeconds(quick ? 1 : 2)),
                    duration,
                    rate != null ? rate : 0,
                    value("--window"),
                    ioThreads),
                LoadSearch.of(quick, rate == null, targetCpu, slo, probes),
                server,
                client,
                value("--housekeeping-cpus"),
                List.of("--workers", String.valueOf(loops)),
                value("--out"),
                value("--noise-threshold"),
                value("--pressure-threshold")));
  }

  private void checkNumbers(
      Integer rate, double targetCpu, Duration slo, int probes, Duration duration) {
    int connections = value("--connections");
    int window = value("--window");
    int payload = value("--payload");
    double noise = value("--noise-threshold");
    double pressure = value("--pressure-threshold");
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
    require(spec, probes >= 0, "--capacity-probes", probes, "an integer >= 0");
    require(spec, window >= 1, "--window", window, "an integer >= 1");
    require(
        spec,
        payload >= 16 && payload <= 1 << 20,
        "--payload",
        payload,
        "an integer from 16 to 1048576");
    require(spec, duration.compareTo(Duration.ZERO) > 0, "--duration", duration, "a duration > 0");
    require(spec, noise >= 0, "--noise-threshold", noise, "a number >= 0");
    require(spec, pressure >= 0, "--pressure-threshold", pressure, "a number >= 0");
  }

  private GatewayLaunch gateway() {
    Path jar = value("--jar");
    if (jar != null) {
      require(spec, Files.isRegularFile(jar), "--jar", jar, "an existing gateway jar file");
      return GatewayLaunch.jar(jar);
    }
    return CommandLines.configured(spec, GatewayLaunch::ownClassPath);
  }

  private <T> T value(String name) {
    return OptionTable.value(options, name);
  }

  /** {@code value}, or {@code otherwise} when the option was not given and has no default. */
  private static <T> T orElse(T value, T otherwise) {
    return value != null ? value : otherwise;
  }

  private static CpuSet firstN(CpuSet cpus, int n) {
    return CpuSet.of(Arrays.copyOf(cpus.toArray(), n));
  }
}
