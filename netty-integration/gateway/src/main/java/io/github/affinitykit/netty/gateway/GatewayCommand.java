package io.github.affinitykit.netty.gateway;

import static io.github.affinitykit.core.cli.CommandLines.require;
import static io.github.affinitykit.core.cli.OptionTable.key;
import static io.github.affinitykit.core.cli.OptionTable.option;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cli.CommandLines;
import io.github.affinitykit.core.cli.KitVersion;
import io.github.affinitykit.core.cli.OptionTable;
import io.github.affinitykit.core.cli.OptionTable.Key;
import io.github.affinitykit.hostreport.IrqSharing;
import io.github.affinitykit.isolation.Isolation;
import io.github.affinitykit.netty.SpinLimit;
import io.github.affinitykit.netty.Transport;
import io.github.affinitykit.netty.WaitPolicy;
import io.github.affinitykit.watchdog.RepinPolicy;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
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

  private static final Key<String> HOST = key("--host", String.class);
  private static final Key<Integer> PORT = key("--port", int.class);
  private static final Key<Transport> TRANSPORT = key("--transport", Transport.class);
  private static final Key<PinMode> PIN = key("--pin", PinMode.class);
  private static final Key<WaitPolicy> WAIT_POLICY = key("--wait-policy", WaitPolicy.class);
  private static final Key<SpinLimit> SPIN_LIMIT = key("--spin-limit", SpinLimit.class);
  private static final Key<Integer> WORKERS = key("--workers", Integer.class);
  private static final Key<String> NIC = key("--nic", String.class);
  private static final Key<IrqSharing> NIC_IRQS = key("--nic-irqs", IrqSharing.class);
  private static final Key<Duration> WATCHDOG = key("--watchdog", Duration.class);
  private static final Key<RepinPolicy> REPIN = key("--repin", RepinPolicy.class);
  private static final Key<Long> WORK_NS = key("--work-ns", long.class);
  private static final Key<Integer> BUSINESS_THREADS = key("--business-threads", int.class);
  private static final Key<Integer> MAX_FRAME_BYTES = key("--max-frame-bytes", int.class);
  private static final Key<Duration> IDLE_TIMEOUT = key("--idle-timeout", Duration.class);
  private static final Key<Integer> LOW_WATER_MARK = key("--low-water-mark", int.class);
  private static final Key<Integer> HIGH_WATER_MARK = key("--high-water-mark", int.class);
  private static final Key<Duration> DRAIN_TIMEOUT = key("--drain-timeout", Duration.class);
  private static final Key<Duration> REQUEST_TIMEOUT = key("--request-timeout", Duration.class);
  private static final Key<Integer> MAX_CONNECTIONS = key("--max-connections", int.class);
  private static final Key<Duration> RESTORE_TIMEOUT = key("--restore-timeout", Duration.class);
  private static final Key<InetSocketAddress> METRICS_ADDRESS =
      key("--metrics-address", InetSocketAddress.class);

  @Spec private CommandSpec spec;

  @Mixin
  private final CommandSpec options =
      OptionTable.of(
          option(HOST, "ADDR", DEFAULTS.host(), "bind address (default ${DEFAULT-VALUE})"),
          option(PORT, "N", DEFAULTS.port(), "TCP port, 0 = any free (default ${DEFAULT-VALUE})"),
          option(
                  TRANSPORT,
                  "T",
                  DEFAULTS.transport(),
                  "auto | io_uring | epoll | nio (default auto: io_uring, else epoll, else nio)")
              .converter(new TransportName()),
          option(
              PIN,
              "MODE",
              DEFAULTS.pin(),
              "unpinned | pinned | exclusive | isolated (default pinned); exclusive also confines"
                  + " every other JVM thread to the housekeeping CPUs; isolated also isolates the"
                  + " workers' CPUs from the rest of the machine at runtime (root; undone at stop)"),
          option(
                  WAIT_POLICY,
                  "P",
                  DEFAULTS.waitPolicy(),
                  "how worker loops wait when idle: block | spin-then-block | busy-poll | auto"
                      + " (default block); auto spins only on a CPU proven exclusive (audited"
                      + " with --pin exclusive or isolated)")
              .converter(new WaitPolicyName()),
          option(
                  SPIN_LIMIT,
                  "L",
                  DEFAULTS.spinLimit(),
                  "spin-then-block polls this long after the last work, then blocks: 50us, 1ms,"
                      + " or a count of empty polls, 200polls (default 50us)")
              .converter(new SpinLimitText()),
          option(WORKERS, "N", "worker loops (default: pool CPUs - 1, at least 1)"),
          option(
              NIC,
              "IF",
              "place the worker loops next to network interface IF (eth0): on the pool's CPUs on"
                  + " its NUMA node; the doctor lists the interfaces (default: none)"),
          option(
              NIC_IRQS,
              "P",
              DEFAULTS.nicIrqs(),
              "next to --nic, avoid | share the CPUs its interrupts go to (default avoid;"
                  + " shared where avoiding leaves no CPU on its node)"),
          option(
              WATCHDOG,
              "D",
              DEFAULTS.watchdog(),
              "check every pinned loop this often for a widened mask (MOVED) or a lost lock"
                  + " file (LOST), on stderr and /metrics; 0s = off (default 1s)"),
          option(
              REPIN,
              "P",
              DEFAULTS.repin(),
              "what the watchdog does with a loop whose mask was widened: report, repin it on its"
                  + " CPU while the kernel allows it, or replan it onto a free CPU of the new set"
                  + " when its CPU is gone (default repin)"),
          option(
              WORK_NS,
              "NS",
              DEFAULTS.workNs(),
              "CPU work per echoed message, ns, before the echo: a stand-in for an application's"
                  + " own (the load test's positive control), 0 to "
                  + GatewayConfig.MAX_WORK_NS
                  + " (default ${DEFAULT-VALUE})"),
          option(
              BUSINESS_THREADS,
              "N",
              DEFAULTS.businessThreads(),
              "pinned business executor threads, 0 = none (default ${DEFAULT-VALUE})"),
          option(
              MAX_FRAME_BYTES,
              "N",
              DEFAULTS.maxFrameBytes(),
              "largest WebSocket message, else close 1009, up to "
                  + GatewayConfig.MAX_FRAME_BYTES_LIMIT
                  + " (16 MiB; default ${DEFAULT-VALUE})"),
          option(
              IDLE_TIMEOUT,
              "D",
              DEFAULTS.idleTimeout(),
              "close connections idle this long: 500ms, 30s, 2m, PT1M (default 60s)"),
          option(
              LOW_WATER_MARK,
              "N",
              DEFAULTS.lowWaterMark(),
              "resume reading a slow client below N bytes (default ${DEFAULT-VALUE})"),
          option(
              HIGH_WATER_MARK,
              "N",
              DEFAULTS.highWaterMark(),
              "stop reading a slow client above N bytes (default ${DEFAULT-VALUE})"),
          option(
              DRAIN_TIMEOUT,
              "D",
              DEFAULTS.drainTimeout(),
              "shutdown waits this long for clients to close (default 5s)"),
          option(
              REQUEST_TIMEOUT,
              "D",
              DEFAULTS.requestTimeout(),
              "an HTTP request or handshake must arrive whole within D, else 408 and close"
                  + " (default 10s)"),
          option(
              MAX_CONNECTIONS,
              "N",
              DEFAULTS.maxConnections(),
              "most TCP connections open at once; more are closed as soon as accepted and"
                  + " counted in connections_refused_total (default ${DEFAULT-VALUE})"),
          option(
                  METRICS_ADDRESS,
                  "HOST:PORT",
                  "serve /metrics there only, not on the main port: 127.0.0.1:9090, [::1]:9090;"
                      + " port 0 = any free (default: on the main port)")
              .converter(new HostPort()),
          option(
              RESTORE_TIMEOUT,
              "D",
              FatalRestorer.BOUND,
              "with --pin isolated, how long an OutOfMemoryError (any VirtualMachineError) waits"
                  + " for the isolation to be put back before the JVM halts anyway; what is left"
                  + " is for affinity-cli release (default 5s)"));

  private final Supplier<AffinityKit> kits;
  private final BiConsumer<Isolation, Duration> restoreAtFatal;

  /** A gateway on the kit {@code kits} supplies. */
  GatewayCommand(Supplier<AffinityKit> kits) {
    this(kits, (iso, bound) -> {});
  }

  /**
   * A gateway on the kit {@code kits} supplies, handing its isolation ({@code --pin isolated}) and
   * {@code --restore-timeout} to {@code restoreAtFatal} as soon as it has started ({@link
   * FatalRestorer#watch(Isolation, Duration)}).
   */
  GatewayCommand(Supplier<AffinityKit> kits, BiConsumer<Isolation, Duration> restoreAtFatal) {
    this.kits = Objects.requireNonNull(kits, "kits");
    this.restoreAtFatal = Objects.requireNonNull(restoreAtFatal, "restoreAtFatal");
  }

  /** Starts the gateway and blocks until it has stopped; 1 if it cannot listen. */
  @Override
  public Integer call() throws InterruptedException {
    GatewayConfig config = config();
    Duration restoreTimeout = RESTORE_TIMEOUT.value(options);
    require(
        spec, positive(restoreTimeout), RESTORE_TIMEOUT.name(), restoreTimeout, "a duration > 0");
    AffinityKit kit = CommandLines.configured(spec, kits); // probed before anything is pinned
    PrintWriter err = spec.commandLine().getErr();
    Optional<GatewayServer> server = start(config, kit, err);
    if (server.isEmpty()) {
      return GatewayMain.EXIT_UNAVAILABLE;
    }
    server.get().isolation().ifPresent(i -> restoreAtFatal.accept(i, restoreTimeout));
    GatewayMain.serve(server.get(), config, kit, spec.commandLine().getOut(), err);
    return 0;
  }

  /**
   * Checks the parsed options and returns them as the server's configuration.
   *
   * @throws picocli.CommandLine.ParameterException naming the option, the value and the rule
   */
  GatewayConfig config() {
    int port = between(PORT, 0, 65_535);
    Integer workers = WORKERS.value(options);
    int businessThreads = BUSINESS_THREADS.value(options);
    int maxFrameBytes = between(MAX_FRAME_BYTES, 125, GatewayConfig.MAX_FRAME_BYTES_LIMIT);
    Duration idleTimeout = IDLE_TIMEOUT.value(options);
    int lowWaterMark = LOW_WATER_MARK.value(options);
    int highWaterMark = HIGH_WATER_MARK.value(options);
    Duration requestTimeout = REQUEST_TIMEOUT.value(options);
    require(spec, workers == null || workers >= 1, WORKERS.name(), workers, "an integer >= 1");
    long workNs = WORK_NS.value(options);
    require(
        spec,
        workNs >= 0 && workNs <= GatewayConfig.MAX_WORK_NS,
        WORK_NS.name(),
        workNs,
        "an integer from 0 to " + GatewayConfig.MAX_WORK_NS);
    require(
        spec, businessThreads >= 0, BUSINESS_THREADS.name(), businessThreads, "an integer >= 0");
    int maxConnections = MAX_CONNECTIONS.value(options);
    require(spec, maxConnections >= 1, MAX_CONNECTIONS.name(), maxConnections, "an integer >= 1");
    require(spec, positive(idleTimeout), IDLE_TIMEOUT.name(), idleTimeout, "a duration > 0");
    require(spec, lowWaterMark >= 1, LOW_WATER_MARK.name(), lowWaterMark, "an integer >= 1");
    require(
        spec,
        highWaterMark >= lowWaterMark,
        HIGH_WATER_MARK.name(),
        highWaterMark,
        "an integer >= --low-water-mark (" + lowWaterMark + ")");
    require(
        spec, positive(requestTimeout), REQUEST_TIMEOUT.name(), requestTimeout, "a duration > 0");
    return CommandLines.configured(
        spec,
        () ->
            new GatewayConfig(
                HOST.value(options),
                port,
                TRANSPORT.value(options),
                PIN.value(options),
                workers == null ? OptionalInt.empty() : OptionalInt.of(workers),
                businessThreads,
                maxFrameBytes,
                idleTimeout,
                lowWaterMark,
                highWaterMark,
                DRAIN_TIMEOUT.value(options),
                requestTimeout,
                WAIT_POLICY.value(options),
                SPIN_LIMIT.value(options),
                workNs,
                Optional.ofNullable(NIC.value(options)),
                NIC_IRQS.value(options),
                WATCHDOG.value(options),
                REPIN.value(options),
                maxConnections,
                Optional.ofNullable(METRICS_ADDRESS.value(options))));
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

  /** The value of {@code key}, checked to be from {@code min} to {@code max}. */
  private int between(Key<Integer> key, int min, int max) {
    int v = key.value(options);
    require(spec, v >= min && v <= max, key.name(), v, "an integer from " + min + " to " + max);
    return v;
  }

  private static boolean positive(Duration d) {
    return !d.isZero() && !d.isNegative();
  }

  /** {@link WaitPolicy#parse}: {@code block}, {@code spin-then-block}, ... in any case. */
  static final class WaitPolicyName implements ITypeConverter<WaitPolicy> {
    @Override
    public WaitPolicy convert(String value) {
      return WaitPolicy.parse(value);
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

  /** {@code HOST:PORT}, an IPv6 host in brackets; unresolved (the bind resolves it). */
  static final class HostPort implements ITypeConverter<InetSocketAddress> {
    static final String RULE = "HOST:PORT with a port from 0 to 65535, e.g. 127.0.0.1:9090";

    @Override
    public InetSocketAddress convert(String value) {
      int colon = value.lastIndexOf(':');
      String host = colon < 0 ? "" : value.substring(0, colon);
      if (host.startsWith("[") && host.endsWith("]")) {
        host = host.substring(1, host.length() - 1);
      }
      int port;
      try {
        port = Integer.parseInt(value.substring(colon + 1));
      } catch (NumberFormatException e) {
        port = -1;
      }
      if (host.isEmpty() || port < 0 || port > 65_535) {
        throw new IllegalArgumentException(RULE);
      }
      return InetSocketAddress.createUnresolved(host, port);
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
