package io.github.affinitykit.bench.load;

import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.HostCpus;
import java.io.IOException;
import java.net.URI;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Parses the load test's command line into {@link LoadTestOptions}; every bad value is named with
 * the rule.
 *
 * <p>Thread safety: stateless.
 */
final class LoadTestArgs {
  static final String USAGE =
      String.join(
          "\n",
          "usage: LoadTest [options]   (defaults: about 5 minutes on 2 CPUs)",
          "  --jar PATH             gateway jar (default: netty-integration/target/*-gateway.jar)",
          "  --scenarios LIST       unpinned,taskset,pinned,exclusive (default: all four)",
          "  --repeats N            trials per scenario, interleaved (default 3)",
          "  --connections N        WebSocket connections (default 50)",
          "  --rate N               messages/s in total, fixed rate; 0 = max throughput (default 20000)",
          "  --window N             in-flight messages per connection at max throughput (default 8)",
          "  --payload N            bytes per message (default 128)",
          "  --warmup D --duration D  per trial (default 5s, 15s)",
          "  --server-cpus LIST --client-cpus LIST  (default: client = first quarter of the CPUs)",
          "  --workers N            gateway worker loops (default: one per server CPU)",
          "  --out DIR              results (default target/loadtest)",
          "  --housekeeping-cpus LIST  CPUs for the pinned gateways' boss, GC, JIT (default: none,"
              + " i.e. every CPU but the server's, the client's included)",
          "  --noise-threshold P    flag trials where other processes used > P% of a CPU (default 10)",
          "  --pressure-threshold P also flag trials with CPU pressure above P% (default 100: off)",
          "  --client-threads N     client event-loop threads (default: one per client CPU)",
          "");
  private static final Set<String> KEYS =
      Set.of(
          "--jar",
          "--scenarios",
          "--repeats",
          "--connections",
          "--rate",
          "--window",
          "--payload",
          "--warmup",
          "--duration",
          "--server-cpus",
          "--client-cpus",
          "--workers",
          "--out",
          "--pressure-threshold",
          "--noise-threshold",
          "--housekeeping-cpus",
          "--client-threads");

  private LoadTestArgs() {}

  static LoadTestOptions parse(List<String> args) throws IOException {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < args.size(); i++) {
      String k = args.get(i);
      if (!KEYS.contains(k) || i + 1 >= args.size()) {
        throw new IllegalArgumentException(
            "option: " + k + " (expected: one of " + KEYS + " with a value)");
      }
      m.put(k, args.get(++i));
    }
    CpuSet reachable = HostCpus.probe().reachable();
    if (reachable.size() < 2) {
      throw new IllegalArgumentException(
          "CPUs: " + reachable + " (expected: at least 2: one for the client, one for the server)");
    }
    CpuSet defaultClient = firstN(reachable, Math.max(1, reachable.size() / 4));
    CpuSet client = cpus(m, "--client-cpus", defaultClient);
    CpuSet server = cpus(m, "--server-cpus", reachable.minus(client));
    int workers = integer(m, "--workers", server.size(), 1);
    LoadConfig load =
        new LoadConfig(
            URI.create("ws://127.0.0.1:1/ws"),
            integer(m, "--connections", 50, 1),
            integer(m, "--payload", 128, 16),
            LoadTestOptions.duration("--warmup", m.getOrDefault("--warmup", "5s")),
            LoadTestOptions.duration("--duration", m.getOrDefault("--duration", "15s")),
            integer(m, "--rate", 20_000, 0),
            integer(m, "--window", 8, 1),
            integer(m, "--client-threads", client.size(), 1));
    return new LoadTestOptions(
        m.containsKey("--jar") ? Path.of(m.get("--jar")) : findJar(),
        Scenario.parseList(m.getOrDefault("--scenarios", "unpinned,taskset,pinned,exclusive")),
        integer(m, "--repeats", 3, 1),
        load,
        server,
        client,
        cpus(m, "--housekeeping-cpus", CpuSet.empty()),
        List.of("--workers", String.valueOf(workers)),
        Path.of(m.getOrDefault("--out", "target/loadtest")),
        number(m, "--noise-threshold", 10),
        number(m, "--pressure-threshold", 100));
  }

  private static CpuSet cpus(Map<String, String> m, String key, CpuSet dflt) {
    return m.containsKey(key) ? CpuSet.parse(m.get(key)) : dflt;
  }

  private static int integer(Map<String, String> m, String key, int dflt, int min) {
    if (!m.containsKey(key)) {
      return dflt;
    }
    String v = m.get(key);
    try {
      int n = Integer.parseInt(v);
      if (n >= min) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(key + ": " + v + " (expected: an integer >= " + min + ")");
  }

  private static double number(Map<String, String> m, String key, double dflt) {
    String v = m.getOrDefault(key, String.valueOf(dflt));
    try {
      double d = Double.parseDouble(v);
      if (d >= 0) {
        return d;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(key + ": " + v + " (expected: a number >= 0)");
  }

  private static CpuSet firstN(CpuSet cpus, int n) {
    int[] ids = cpus.toArray();
    return CpuSet.of(java.util.Arrays.copyOf(ids, n));
  }

  static Path findJar() throws IOException {
    List<Path> found = new ArrayList<>();
    for (Path dir :
        List.of(Path.of("netty-integration/target"), Path.of("../netty-integration/target"))) {
      if (Files.isDirectory(dir)) {
        try (DirectoryStream<Path> s =
            Files.newDirectoryStream(dir, "netty-integration-*-gateway.jar")) {
          s.forEach(found::add);
        }
      }
    }
    if (found.isEmpty()) {
      throw new IllegalArgumentException(
          "--jar: not given and no netty-integration/target/netty-integration-*-gateway.jar"
              + " (build it: mvn -B -q package -DskipTests)");
    }
    return found.get(0);
  }
}
