package io.github.affinitykit.netty.gateway;

import io.github.affinitykit.hostreport.IrqSharing;
import io.github.affinitykit.netty.SpinLimit;
import io.github.affinitykit.netty.Transport;
import io.github.affinitykit.netty.WaitPolicy;
import io.github.affinitykit.watchdog.RepinPolicy;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The gateway's settings; the gateway's command line ({@code --help}) reads them from its options.
 *
 * <p>Thread safety: immutable.
 *
 * @param host the address to bind ({@code 127.0.0.1} by default)
 * @param port the TCP port; 0 picks a free one
 * @param transport the Netty transport; AUTO takes io_uring, else epoll, else NIO
 * @param pin unpinned, pinned, exclusive or isolated
 * @param workers worker loops; empty = one per pool CPU but the boss's (at least 1)
 * @param businessThreads business executor threads running the WebSocket handlers; 0 = none
 * @param maxFrameBytes the largest WebSocket message accepted; a larger one is closed with 1009
 * @param idleTimeout a connection with no traffic either way for this long is closed
 * @param lowWaterMark below this many pending outbound bytes, a paused client is read again
 * @param highWaterMark above this many pending outbound bytes, a client is no longer read
 * @param drainTimeout how long shutdown waits for clients to answer the 1001 close
 * @param requestTimeout an HTTP request (a WebSocket handshake too) not read whole within this long
 *     of its first byte (or of the connection opening) gets 408 and the connection is closed
 * @param waitPolicy how the worker loops wait when idle; AUTO spins only on a CPU proven exclusive
 *     (in {@link PinMode#EXCLUSIVE} the workers' CPUs are audited at start)
 * @param spinLimit how long a spin-then-block loop polls after its last work before it blocks
 * @param workNs CPU work per echoed message, in ns, before the echo (a stand-in for an
 *     application's own work; the load test's positive control adds a known cost this way); 0 =
 *     none
 * @param nic the network interface the worker loops are placed next to (its NUMA node first); empty
 *     = none
 * @param nicIrqs whether, next to {@code nic}, the loops avoid the CPUs its interrupts go to
 * @param watchdog how often a watchdog checks every pinned loop (MOVED, LOST, re-pin); zero = off
 * @param repin what the watchdog does with a loop whose mask was widened
 * @param maxConnections the most TCP connections open at once (both ports); one more is closed as
 *     soon as accepted and counted
 * @param metricsAddress where {@code /metrics} is served instead of the main port (host and port,
 *     unresolved; port 0 picks a free one); empty = on the main port
 */
public record GatewayConfig(
    String host,
    int port,
    Transport transport,
    PinMode pin,
    OptionalInt workers,
    int businessThreads,
    int maxFrameBytes,
    Duration idleTimeout,
    int lowWaterMark,
    int highWaterMark,
    Duration drainTimeout,
    Duration requestTimeout,
    WaitPolicy waitPolicy,
    SpinLimit spinLimit,
    long workNs,
    Optional<String> nic,
    IrqSharing nicIrqs,
    Duration watchdog,
    RepinPolicy repin,
    int maxConnections,
    Optional<InetSocketAddress> metricsAddress) {

  /**
   * The defaults: 127.0.0.1:8080, AUTO, pinned, 64 KiB frames, 60 s idle, 32/64 KiB marks, 5 s
   * drain, 10 s request deadline, loops that block when idle, no work per message, no NIC, 10,000
   * connections, {@code /metrics} on the main port.
   */
  public static final GatewayConfig DEFAULTS =
      new GatewayConfig(
          "127.0.0.1",
          8080,
          Transport.AUTO,
          PinMode.PINNED,
          OptionalInt.empty(),
          0,
          65_536,
          Duration.ofSeconds(60),
          32 * 1024,
          64 * 1024,
          Duration.ofSeconds(5),
          Duration.ofSeconds(10),
          WaitPolicy.BLOCK,
          SpinLimit.DEFAULT,
          0,
          Optional.empty(),
          IrqSharing.AVOID,
          Duration.ofSeconds(1),
          RepinPolicy.REPIN,
          10_000,
          Optional.empty());

  /** The most work per message: 10 ms (a stand-in for work, not a way to stall a loop). */
  public static final long MAX_WORK_NS = 10_000_000L;

  /**
   * The largest {@code maxFrameBytes}: 16 MiB. A message is held whole while it is aggregated and
   * again while its echo is written, so one connection may hold twice this; a heap sized for
   * thousands of connections holds a few such messages, not thousands. Larger payloads belong on a
   * streaming protocol, not in one WebSocket message.
   */
  public static final int MAX_FRAME_BYTES_LIMIT = 16 << 20;

  /** Validates every value; errors name the value and the rule. */
  public GatewayConfig {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(transport, "transport");
    Objects.requireNonNull(pin, "pin");
    Objects.requireNonNull(workers, "workers");
    Objects.requireNonNull(idleTimeout, "idleTimeout");
    Objects.requireNonNull(drainTimeout, "drainTimeout");
    Objects.requireNonNull(requestTimeout, "requestTimeout");
    Objects.requireNonNull(waitPolicy, "waitPolicy");
    Objects.requireNonNull(spinLimit, "spinLimit");
    Objects.requireNonNull(nic, "nic");
    Objects.requireNonNull(nicIrqs, "nicIrqs");
    Objects.requireNonNull(watchdog, "watchdog");
    Objects.requireNonNull(repin, "repin");
    Objects.requireNonNull(metricsAddress, "metricsAddress");
    check(
        watchdog.isZero() || watchdog.toMillis() >= 1, "watchdog", watchdog, ">= 1ms, or 0 = off");
    check(workNs >= 0 && workNs <= MAX_WORK_NS, "work-ns", workNs, "0.." + MAX_WORK_NS);
    check(port >= 0 && port <= 65_535, "port", port, "0..65535");
    check(workers.orElse(1) > 0, "workers", workers.orElse(0), "> 0");
    check(businessThreads >= 0, "business-threads", businessThreads, ">= 0");
    check(
        maxFrameBytes >= 125 && maxFrameBytes <= MAX_FRAME_BYTES_LIMIT,
        "max-frame-bytes",
        maxFrameBytes,
        "125.." + MAX_FRAME_BYTES_LIMIT);
    check(maxConnections >= 1, "max-connections", maxConnections, ">= 1");
    check(!idleTimeout.isNegative() && !idleTimeout.isZero(), "idle-timeout", idleTimeout, "> 0");
    check(lowWaterMark > 0, "low-water-mark", lowWaterMark, "> 0");
    check(highWaterMark >= lowWaterMark, "high-water-mark", highWaterMark, ">= low-water-mark");
    check(!drainTimeout.isNegative(), "drain-timeout", drainTimeout, ">= 0");
    check(
        !requestTimeout.isNegative() && !requestTimeout.isZero(),
        "request-timeout",
        requestTimeout,
        "> 0");
  }

  private static void check(boolean ok, String name, Object value, String rule) {
    if (!ok) {
      throw new IllegalArgumentException(name + ": " + value + " (expected: " + rule + ")");
    }
  }
}
