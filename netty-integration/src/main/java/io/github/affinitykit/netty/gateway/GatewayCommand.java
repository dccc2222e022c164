package io.github.affinitykit.netty.gateway;

import static io.github.affinitykit.core.cli.CommandLines.require;
import static io.github.affinitykit.core.cli.OptionTable.option;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cli.CommandLines;
import io.github.affinitykit.core.cli.KitVersion;
import io.github.affinitykit.core.cli.OptionTable;
import io.github.affinitykit.netty.IdlePolicy;
import io.github.affinitykit.netty.SpinLimit;
import io.github.affinitykit.netty.Transport;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The gateway's command line: options into a {@link GatewayConfig}, the kit (a bad {@code
 * -Daffinitykit.pool} or {@code AFFINITYKIT_POOL}), then the server (a pin mode the pool cannot
 * satisfy); each bad value is one line naming it, its value and the rule, exit status 2. Once
 * started, {@link GatewayMain#serve} runs the gateway until SIGTERM.
 *
 * <p>Thread safety: one instance per run.
 */
@Command(
    name = "gateway",
    mixinStandardHelpOptions = true,
    versionProvider = KitVersion.class,
    sortOptions = false,
    description = {
      "The reference WebSocket gateway: /ws echo, /room broadcast, /health, /metrics, on pinned"
          + " Netty loops. SIGTERM closes every WebSocket with 1001, drains and frees the CPUs."
    },
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {
      "0:--help or --version",
      "1:cannot listen (address in use)",
      "2:a bad option, pool override (-Daffinitykit.pool, AFFINITYKIT_POOL) or pin mode",
      "3:OutOfMemoryError or another VirtualMachineError (the JVM halts)",
      "143:stopped by SIGTERM"
    })
final class GatewayCommand implements Callable<Integer> {
  private static final GatewayConfig DEFAULTS = GatewayConfig.DEFAULTS;

  @Spec private CommandSpec spec;

  @Mixin
  private final CommandSpec options =
      OptionTable.of(
          option(
              "--host",
              "ADDR",
              String.class,
              DEFAULTS.host(),
              "bind address (default ${DEFAULT-VALUE})"),
          option(
              "--port",
              "N",
              int.class,
              DEFAULTS.port(),
              "TCP port, 0 = any free (default ${DEFAULT-VALUE})"),
          option(
                  "--transport",
                  "T",
                  Transport.class,
                  DEFAULTS.transport(),
                  "auto | io_uring | epoll | nio (default auto: io_uring, else epoll, else nio)")
              .converters(new TransportName()),
          option(
              "--pin",
              "MODE",
              PinMode.class,
              DEFAULTS.pin(),
              "none | pinned | exclusive (default pinned); exclusive also confines every"
                  + " other JVM thread to the housekeeping CPUs"),
          option(
                  "--idle-policy",
                  "P",
                  IdlePolicy.class,
                  DEFAULTS.idlePolicy(),
                  "how worker loops wait when idle: block | spin-then-block | busy-poll | auto"
                      + " (default block); auto spins only on a CPU proven exclusive (audited"
                      + " with --pin exclusive)")
              .converters(new IdlePolicyName()),
          option(
                  "--spin-limit",
                  "L",
                  SpinLimit.class,
                  DEFAULTS.spinLimit(),
                  "spin-then-block polls this long after the last work, then blocks: 50us, 1ms,"
                      + " or a count of empty polls, 200polls (default 50us)")
              .converters(new SpinLimitText()),
          option(
              "--workers", "N", Integer.class, "worker loops (default: pool CPUs - 1, at least 1)"),
          option(
              "--business-threads",
              "N",
              int.class,
              DEFAULTS.businessThreads(),
              "pinned business executor threads, 0 = none (default ${DEFAULT-VALUE})"),
          option(
              "--max-frame-bytes",
              "N",
              int.class,
              DEFAULTS.maxFrameBytes(),
              "largest WebSocket message, else close 1009 (default ${DEFAULT-VALUE})"),
          option(
              "--idle-timeout",
              "D",
              Duration.class,
              DEFAULTS.idleTimeout(),
              "close connections idle this long: 500ms, 30s, 2m, PT1M (default 60s)"),
          option(
              "--low-water-mark",
              "N",
              int.class,
              DEFAULTS.lowWaterMark(),
              "resume reading a slow client below N bytes (default ${DEFAULT-VALUE})"),
          option(
              "--high-water-mark",
              "N",
              int.class,
              DEFAULTS.highWaterMark(),
              "stop reading a slow client above N bytes (default ${DEFAULT-VALUE})"),
          option(
              "--drain-timeout",
              "D",
              Duration.class,
              DEFAULTS.drainTimeout(),
              "shutdown waits this long for clients to close (default 5s)"),
          option(
              "--request-timeout",
              "D",
              Duration.class,
              DEFAULTS.requestTimeout(),
              "an HTTP request or handshake must arrive whole within D, else 408 and close"
                  + " (default 10s)"));

  private final Supplier<AffinityKit> kits;

  /** A gateway on the kit {@code kits} supplies. */
  GatewayCommand(Supplier<AffinityKit> kits) {
    this.kits = Objects.requireNonNull(kits, "kits");
  }

  /** Starts the gateway and blocks until it has stopped; 1 if it cannot listen. */
  @Override
  public Integer call() throws InterruptedException {
    GatewayConfig config = config();
    AffinityKit kit = CommandLines.configured(spec, kits); // probed before anything is pinned
    PrintWriter err = spec.commandLine().getErr();
    Optional<GatewayServer> server = start(config, kit, err);
    if (server.isEmpty()) {
      return GatewayMain.EXIT_UNAVAILABLE;
    }
    GatewayMain.serve(server.get(), config, kit, spec.commandLine().getOut(), err);
    return 0;
  }

  /**
   * Checks the parsed options and returns them as the server's configuration.
   *
   * @throws picocli.CommandLine.ParameterException naming the option, the value and the rule
   */
  GatewayConfig config() {
    int port = value("--port");
    Integer workers = value("--workers");
    int businessThreads = value("--business-threads");
    int maxFrameBytes = value("--max-frame-bytes");
    Duration idleTimeout = value("--idle-timeout");
    int lowWaterMark = value("--low-water-mark");
    int highWaterMark = value("--high-water-mark");
    Duration requestTimeout = value("--request-timeout");
    require(spec, port >= 0 && port <= 65_535, "--port", port, "an integer from 0 to 65535");
    require(spec, workers == null || workers >= 1, "--workers", workers, "an integer >= 1");
    require(spec, businessThreads >= 0, "--business-threads", businessThreads, "an integer >= 0");
    require(spec, maxFrameBytes >= 125, "--max-frame-bytes", maxFrameBytes, "an integer >= 125");
    require(spec, positive(idleTimeout), "--idle-timeout", idleTimeout, "a duration > 0");
    require(spec, lowWaterMark >= 1, "--low-water-mark", lowWaterMark, "an integer >= 1");
    require(
        spec,
        highWaterMark >= lowWaterMark,
        "--high-water-mark",
        highWaterMark,
        "an integer >= --low-water-mark (" + lowWaterMark + ")");
    require(spec, positive(requestTimeout), "--request-timeout", requestTimeout, "a duration > 0");
    return CommandLines.configured(
        spec,
        () ->
            new GatewayConfig(
                value("--host"),
                port,
                value("--transport"),
                value("--pin"),
                workers == null ? OptionalInt.empty() : OptionalInt.of(workers),
                businessThreads,
                maxFrameBytes,
                idleTimeout,
                lowWaterMark,
                highWaterMark,
                value("--drain-timeout"),
                requestTimeout,
                value("--idle-policy"),
                value("--spin-limit")));
  }

  private <T> T value(String name) {
    return OptionTable.value(options, name);
  }

  /** The server, or empty (said on {@code err}) if it cannot listen. */
  private Optional<GatewayServer> start(GatewayConfig config, AffinityKit kit, PrintWriter err) {
    try {
      return Optional.of(GatewayServer.start(config, kit)); // pins; may refuse the pin mode
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw CommandLines.usageError(spec, e);
    } catch (Exception e) { // Netty rethrows the bind's BindException undeclared
      err.println("gateway: cannot listen on " + config.host() + ":" + config.port() + ": " + e);
      return Optional.empty();
    }
  }

  private static boolean positive(Duration d) {
    return !d.isZero() && !d.isNegative();
  }

  /** {@link IdlePolicy#parse}: {@code block}, {@code spin-then-block}, ... in any case. */
  static final class IdlePolicyName implements ITypeConverter<IdlePolicy> {
    @Override
    public IdlePolicy convert(String value) {
      return IdlePolicy.parse(value);
    }
  }

  /** {@link SpinLimit#parse}: {@code 50us}, {@code 1ms}, {@code 200polls}. */
  static final class SpinLimitText implements ITypeConverter<SpinLimit> {
    @Override
    public SpinLimit convert(String value) {
      try {
        return SpinLimit.parse(value);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(SpinLimit.RULE, e); // the one line states the rule
      }
    }
  }

  /** {@link Transport#parse}: the enum's names in any case, and {@code iouring}. */
  static final class TransportName implements ITypeConverter<Transport> {
    @Override
    public Transport convert(String value) {
      return Transport.parse(value);
    }
  }
}
