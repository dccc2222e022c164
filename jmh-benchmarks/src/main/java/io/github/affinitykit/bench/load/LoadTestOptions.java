package io.github.affinitykit.bench.load;

import io.github.affinitykit.core.cpu.CpuSet;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The load test's options, with defaults sized for the run's budget ({@code --budget}, 10 minutes).
 *
 * <p>Thread safety: immutable.
 *
 * @param gateway how the gateway JVM is launched
 * @param scenarios scenarios, run interleaved
 * @param repeats trials per scenario
 * @param load the client's load (its URI port is a placeholder, each gateway gets its own; its rate
 *     is the one every scenario runs at unless {@code search} calibrates it)
 * @param search the calibration, capacity ramp and idle window
 * @param serverCpus CPUs of the server (pool of the pinned runs, taskset of the taskset run)
 * @param clientCpus CPUs the client's threads are confined to
 * @param housekeepingCpus CPUs for the pinned gateways' boss, GC, JIT and other threads (empty:
 *     every CPU but the server's, which includes the client's)
 * @param serverArgs extra gateway arguments (e.g. {@code --workers 1})
 * @param out directory for the JSON, HTML and logs
 * @param noiseThresholdPercent trials in which other processes used more CPU than this (100 = one
 *     CPU) are flagged, left out of the medians and measured again
 * @param pressureThresholdPercent trials whose CPU pressure (PSI {@code some}, % of the window)
 *     exceeds this are flagged too (100: never; the test's own threads raise it)
 * @param isolate whether the {@code exclusive} scenario also isolates the server's worker CPUs from
 *     the rest of the machine at runtime (gateway {@code --pin isolated}; never by default)
 */
public record LoadTestOptions(
    GatewayLaunch gateway,
    List<Scenario> scenarios,
    int repeats,
    LoadConfig load,
    LoadSearch search,
    CpuSet serverCpus,
    CpuSet clientCpus,
    CpuSet housekeepingCpus,
    List<String> serverArgs,
    Path out,
    double noiseThresholdPercent,
    double pressureThresholdPercent,
    boolean isolate) {

  /** A warm-up to steady state on a quiet 2-CPU machine, for the first estimates. */
  static final Duration TYPICAL_WARMUP = Duration.ofSeconds(6);

  /** Validates. */
  public LoadTestOptions {
    Objects.requireNonNull(gateway, "gateway");
    Objects.requireNonNull(search, "search");
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

  /**
   * Returns the expected duration of one trial, for progress until one is measured: the gateway's
   * start, its warm-up (typically {@link #TYPICAL_WARMUP}, at most {@code --warmup}), the recorded
   * and idle windows, the capacity probes, the stop.
   */
  Duration expectedPerTrial() {
    Duration warm = load.warmup().compareTo(TYPICAL_WARMUP) < 0 ? load.warmup() : TYPICAL_WARMUP;
    return warm.plus(load.duration())
        .plus(search.idleWindow())
        .plus(search.capacityProbeTime().multipliedBy(search.capacityProbes()))
        .plusMillis(3_000); // gateway start and stop, connections, drain
  }
}
