package io.github.affinitykit.netty.gateway;

import io.github.affinitykit.netty.Transport;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;

/**
 * Parses the gateway's command line into a {@link GatewayConfig}: {@code --name value} or {@code
 * --name=value}.
 *
 * <p>Thread safety: stateless.
 */
public final class GatewayArgs {
  /** The usage text, one option per line. */
  public static final String USAGE =
      String.join(
          System.lineSeparator(),
          "usage: GatewayMain [options]",
          "  --host ADDR              bind address (default 127.0.0.1)",
          "  --port N                 TCP port, 0 = any free (default 8080)",
          "  --transport T            auto | io_uring | epoll | nio (default auto)",
          "  --pin MODE               none | pinned | exclusive (default pinned)",
          "  --workers N              worker loops (default: pool CPUs - 1, at least 1)",
          "  --business-threads N     pinned business executor threads, 0 = none (default 0)",
          "  --max-frame-bytes N      largest WebSocket message, else close 1009 (default 65536)",
          "  --idle-timeout D         close idle connections: 30s, 500ms, 2m, PT1M (default 60s)",
          "  --low-water-mark N       resume reading a slow client below N bytes (default 32768)",
          "  --high-water-mark N      stop reading a slow client above N bytes (default 65536)",
          "  --drain-timeout D        shutdown waits this long for clients to close (default 5s)",
          "  --request-timeout D      an HTTP request or handshake must arrive whole within D,",
          "                           else 408 and close (default 10s)");

  private GatewayArgs() {}

  private static final Set<String> OPTIONS =
      Set.of(
          "host",
          "port",
          "transport",
          "pin",
          "workers",
          "business-threads",
          "max-frame-bytes",
          "idle-timeout",
          "low-water-mark",
          "high-water-mark",
          "drain-timeout",
          "request-timeout");

  /**
   * Parses {@code args} over {@link GatewayConfig#DEFAULTS}.
   *
   * @throws IllegalArgumentException naming the option, the value and the rule
   */
  public static GatewayConfig parse(String... args) {
    Map<String, String> o = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("--")) {
        throw new IllegalArgumentException("argument: " + a + " (expected: --option value)");
      }
      int eq = a.indexOf('=');
      String name = eq > 0 ? a.substring(2, eq) : a.substring(2);
      if (!OPTIONS.contains(name)) {
        throw new IllegalArgumentException(
            "--" + name + " (expected: one of " + new TreeSet<>(OPTIONS) + ")");
      }
      if (eq > 0) {
        o.put(name, a.substring(eq + 1));
      } else if (i + 1 < args.length) {
        o.put(name, args[++i]);
      } else {
        throw new IllegalArgumentException("--" + name + ": missing value");
      }
    }
    GatewayConfig d = GatewayConfig.DEFAULTS;
    return new GatewayConfig(
        o.getOrDefault("host", d.host()),
        o.containsKey("port") ? integer("port", o.get("port")) : d.port(),
        o.containsKey("transport") ? Transport.parse(o.get("transport")) : d.transport(),
        o.containsKey("pin") ? PinMode.parse(o.get("pin")) : d.pin(),
        o.containsKey("workers")
            ? OptionalInt.of(integer("workers", o.get("workers")))
            : d.workers(),
        intOr(o, "business-threads", d.businessThreads()),
        intOr(o, "max-frame-bytes", d.maxFrameBytes()),
        o.containsKey("idle-timeout")
            ? duration("idle-timeout", o.get("idle-timeout"))
            : d.idleTimeout(),
        intOr(o, "low-water-mark", d.lowWaterMark()),
        intOr(o, "high-water-mark", d.highWaterMark()),
        o.containsKey("drain-timeout")
            ? duration("drain-timeout", o.get("drain-timeout"))
            : d.drainTimeout(),
        o.containsKey("request-timeout")
            ? duration("request-timeout", o.get("request-timeout"))
            : d.requestTimeout());
  }

  private static int intOr(Map<String, String> o, String name, int fallback) {
    return o.containsKey(name) ? integer(name, o.get(name)) : fallback;
  }

  private static int integer(String name, String v) {
    try {
      return Integer.parseInt(v.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + ": " + v + " (expected: an integer)", e);
    }
  }

  /** {@code 250ms}, {@code 30s}, {@code 2m}, or ISO-8601 ({@code PT30S}). */
  static Duration duration(String name, String v) {
    String s = v.strip().toLowerCase(Locale.ROOT);
    try {
      if (s.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2)));
      } else if (s.endsWith("s") && !s.startsWith("pt")) {
        return Duration.ofSeconds(Long.parseLong(s.substring(0, s.length() - 1)));
      } else if (s.endsWith("m") && !s.startsWith("pt")) {
        return Duration.ofMinutes(Long.parseLong(s.substring(0, s.length() - 1)));
      }
      return Duration.parse(v.strip());
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new IllegalArgumentException(
          name + ": " + v + " (expected: a duration such as 500ms, 30s, 2m or PT1M)", e);
    }
  }
}
