package io.github.affinitykit.bench.load;

import static io.github.affinitykit.core.cli.OptionTable.key;
import static io.github.affinitykit.core.cli.OptionTable.option;

import io.github.affinitykit.core.cli.CommandLines;
import io.github.affinitykit.core.cli.KitVersion;
import io.github.affinitykit.core.cli.OptionTable;
import io.github.affinitykit.core.cli.OptionTable.Key;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The soak's command line: options, checks, the run and its report; exit 1 if it failed. */
@Command(
    name = "Soak",
    mixinStandardHelpOptions = true,
    versionProvider = KitVersion.class,
    sortOptions = false,
    description =
        "Holds one gateway at a steady rate for --duration while short-lived clients come and go"
            + " (ping, echo, close; room broadcasts) and --hostile %% of them misbehave"
            + " (non-reading, slowloris, oversize, bad frames, resets); samples the gateway's"
            + " memory, descriptors, threads and placement every --sample and the p99 of every"
            + " minute. Passes when nothing grows, no well-behaved message is lost and no"
            + " thread's mask moved. Reports in --out (soak.txt, samples.csv, soak.html).")
final class SoakCommand implements Callable<Integer> {
  private static final Key<Duration> DURATION = key("--duration", Duration.class);
  private static final Key<Duration> WARMUP = key("--warmup", Duration.class);
  private static final Key<Long> RATE = key("--rate", long.class);
  private static final Key<Integer> CONNECTIONS = key("--connections", int.class);
  private static final Key<Double> CHURN = key("--churn", double.class);
  private static final Key<Integer> HOSTILE = key("--hostile", int.class);
  private static final Key<Duration> SAMPLE = key("--sample", Duration.class);
  private static final Key<String> PIN = key("--pin", String.class);
  private static final Key<String> HEAP = key("--heap", String.class);
  private static final Key<Path> OUT = key("--out", Path.class);

  private final PrintStream console;

  @Spec private CommandSpec spec;

  @Mixin
  private final CommandSpec options =
      OptionTable.of(
          option(DURATION, "D", Duration.ofMinutes(30), "how long the load is held (default 30m)"),
          option(WARMUP, "D", Soak.WARMUP, "load before recording starts (default 15s)"),
          option(
              RATE,
              "N",
              2_000L,
              "messages/s of the steady connections; use the load test's calibrated rate"
                  + " (results.json: ratePerSecond) to soak at the operating point"
                  + " (default ${DEFAULT-VALUE})"),
          option(CONNECTIONS, "N", 8, "steady echo connections (default ${DEFAULT-VALUE})"),
          option(
              CHURN,
              "N",
              4.0,
              "short-lived client cycles started per second (default ${DEFAULT-VALUE})"),
          option(
              HOSTILE,
              "P",
              20,
              "percent of those cycles that are hostile, the five kinds in turn (default"
                  + " ${DEFAULT-VALUE})"),
          option(SAMPLE, "D", Duration.ofSeconds(5), "time between resource samples (default 5s)"),
          option(PIN, "MODE", "pinned", "the gateway's --pin (default ${DEFAULT-VALUE})"),
          option(
              HEAP,
              "SIZE",
              "256m",
              "the gateway's heap, -Xms and -Xmx, touched at start (default ${DEFAULT-VALUE})"),
          option(OUT, "DIR", "where the report goes (default soak-results/<UTC time>)"));

  SoakCommand(PrintStream console) {
    this.console = Objects.requireNonNull(console, "console");
  }

  @Override
  public Integer call() throws IOException, InterruptedException {
    SoakOptions o = options();
    SoakResult r = Soak.run(o, console);
    SoakReport.write(r, console);
    return r.failures().isEmpty() ? 0 : 1;
  }

  /** The parsed options, checked against each other. */
  SoakOptions options() {
    Path out = OUT.value(options);
    Path dir =
        out != null
            ? out
            : Path.of(
                "soak-results",
                DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HHmmss'Z'")
                    .withZone(ZoneOffset.UTC)
                    .format(Instant.now()));
    return CommandLines.configured(
        spec,
        () ->
            new SoakOptions(
                GatewayLaunch.ownClassPath(),
                PIN.value(options),
                HEAP.value(options),
                DURATION.value(options),
                WARMUP.value(options),
                RATE.value(options),
                CONNECTIONS.value(options),
                CHURN.value(options),
                HOSTILE.value(options),
                SAMPLE.value(options),
                dir));
  }
}
