package io.github.affinitykit.bench.load;

import io.github.affinitykit.core.CpuSet;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The load test's options, with defaults sized for about five minutes on a 2-CPU machine.
 *
 * <p>Thread safety: immutable.
 *
 * @param gatewayJar the shaded gateway jar
 * @param scenarios scenarios, run interleaved
 * @param repeats trials per scenario
 * @param load the client's load (its URI port is a placeholder; each trial gets its own port)
 * @param serverCpus CPUs of the server (pool of the pinned runs, taskset of the taskset run)
 * @param clientCpus CPUs the client's threads are confined to
 * @param housekeepingCpus CPUs for the pinned gateways' boss, GC, JIT and other threads (empty:
 *     every CPU but the server's, which includes the client's)
 * @param serverArgs extra gateway arguments (e.g. {@code --workers 1})
 * @param out directory for the JSON, HTML and logs
 * @param noiseThresholdPercent trials in which other processes used more CPU than this (100 = one
 *     CPU) are flagged and left out of the medians
 * @param pressureThresholdPercent trials whose CPU pressure (PSI {@code some}, % of the window)
 *     exceeds this are flagged too (100: never; the test's own threads raise it)
 */
public record LoadTestOptions(
    Path gatewayJar,
    List<Scenario> scenarios,
    int repeats,
    LoadConfig load,
    CpuSet serverCpus,
    CpuSet clientCpus,
    CpuSet housekeepingCpus,
    List<String> serverArgs,
    Path out,
    double noiseThresholdPercent,
    double pressureThresholdPercent) {

  /** Validates. */
  public LoadTestOptions {
    Objects.requireNonNull(gatewayJar, "gatewayJar");
    scenarios = List.copyOf(scenarios);
    if (scenarios.isEmpty()) {
      throw new IllegalArgumentException("--scenarios: \"\" (expected: at least one)");
    }
    if (repeats < 1) {
      throw new IllegalArgumentException("--repeats: " + repeats + " (expected: >= 1)");
    }
    Objects.requireNonNull(load, "load");
    if (serverCpus.isEmpty() || clientCpus.isEmpty() || serverCpus.intersects(clientCpus)) {
      throw new IllegalArgumentException(
          "--server-cpus "
              + serverCpus
              + " --client-cpus "
              + clientCpus
              + " (expected: two non-empty, disjoint CPU lists)");
    }
    if (housekeepingCpus.intersects(serverCpus) || housekeepingCpus.intersects(clientCpus)) {
      throw new IllegalArgumentException(
          "--housekeeping-cpus "
              + housekeepingCpus
              + " (expected: disjoint from --server-cpus "
              + serverCpus
              + " and --client-cpus "
              + clientCpus
              + ")");
    }
    serverArgs = List.copyOf(serverArgs);
    Objects.requireNonNull(out, "out");
  }

  /** Returns the trials' total expected duration, for progress. */
  Duration expectedTotal() {
    Duration perTrial = load.warmup().plus(load.duration()).plusSeconds(4); // start, drain, stop
    return perTrial.multipliedBy((long) repeats * scenarios.size());
  }
}
